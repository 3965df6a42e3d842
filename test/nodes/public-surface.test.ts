/**
 * What n8n-nodes-linkshort ships, as workflows name it: the entries of package.json's `n8n` field
 * (loaded from the build, as n8n loads them), each one's name, the node's resources and operations
 * and the trigger's events. Renaming any of these breaks saved workflows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeProperties, INodeType } from 'n8n-workflow';

const PACKAGE_DIR = join(__dirname, '../../nodes');

const SHIPPED = {
  credentials: { 'dist/credentials/LinkShortApi.credentials.js': 'linkShortApi' },
  nodes: {
    'dist/nodes/LinkShort/LinkShort.node.js': 'linkShort',
    'dist/nodes/LinkShortTrigger/LinkShortTrigger.node.js': 'linkShortTrigger',
  },
};

const OPERATIONS_BY_RESOURCE = {
  account: ['get', 'update'],
  domain: ['create', 'delete', 'getMany', 'update'],
  link: ['create', 'delete', 'get', 'getMany', 'update'],
  overlay: ['getMany'],
  pixel: ['create', 'delete', 'getMany', 'update'],
  plan: ['getMany', 'subscribe'],
  qrCode: ['create', 'delete', 'get', 'getMany', 'update'],
  splashPage: ['getMany'],
  user: ['create', 'delete', 'get', 'getLoginLink', 'getMany'],
};

const TRIGGER_EVENTS = ['clickDigest', 'linkClickRate', 'linkClickThreshold', 'newLink', 'newLinkClicks', 'newQrCode', 'newQrScans'];

const n8nField = (JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { n8n: { credentials: string[]; nodes: string[] } }).n8n;

/** The one class an entry file exports, made as n8n makes it. */
function instanceOf<T>(entry: string): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const exported = Object.values(require(join(PACKAGE_DIR, entry)) as Record<string, new () => T>);
  expect(exported).toHaveLength(1);
  return new exported[0]!();
}

const valuesOf = (property: INodeProperties | undefined) => (property?.options ?? []).map((option) => ('value' in option ? option.value : undefined)).sort();

test('package.json ships exactly the listed credentials and nodes, each under its name', () => {
  const names = (entries: string[], nameOf: (entry: string) => string) => Object.fromEntries(entries.map((entry) => [entry, nameOf(entry)]));
  expect({
    credentials: names(n8nField.credentials, (entry) => instanceOf<{ name: string }>(entry).name),
    nodes: names(n8nField.nodes, (entry) => instanceOf<INodeType>(entry).description.name),
  }).toEqual(SHIPPED);
});

test('the LinkShort node offers exactly the listed resources and operations', () => {
  const { properties } = instanceOf<INodeType>('dist/nodes/LinkShort/LinkShort.node.js').description;
  const resources = valuesOf(properties.find((property) => property.name === 'resource'));
  const operations = Object.fromEntries(
    resources.map((resource) => [
      resource,
      valuesOf(properties.find((property) => property.name === 'operation' && property.displayOptions?.show?.resource?.includes(resource))),
    ]),
  );
  expect(operations).toEqual(OPERATIONS_BY_RESOURCE);
});

test('the LinkShort Trigger offers exactly the listed events', () => {
  const { properties } = instanceOf<INodeType>('dist/nodes/LinkShortTrigger/LinkShortTrigger.node.js').description;
  expect(valuesOf(properties.find((property) => property.name === 'event'))).toEqual(TRIGGER_EVENTS);
});
