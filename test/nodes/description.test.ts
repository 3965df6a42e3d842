/**
 * The LinkShort node's description as n8n's editor reads it from the built package: which fields
 * n8n shows and requires for each operation and each choice of its options (n8n-workflow's own
 * NodeHelpers decide, as the editor and the execution check do), against the fields the operation
 * really reads when it runs through n8n-core.
 */
import { NodeHelpers, type INode, type INodeParameters, type INodeProperties, type NodeParameterValue } from 'n8n-workflow';
import { startSandbox, type Sandbox } from '@linkshort/sandbox';
import { resources } from '../../nodes/nodes/LinkShort/actions/resources';
import { executeNode, latestVersion, linkShortDescription, type Credentials } from './harness';

const built = linkShortDescription.properties;
const SELECTORS = new Set(['resource', 'operation']);
const VERSION = latestVersion(linkShortDescription);

const operations = Object.entries(resources).flatMap(([resource, { operations: byValue }]) =>
  Object.entries(byValue).map(([operation, { properties }]) => ({ resource, operation, declared: properties })),
);

function isUnder(property: INodeProperties, resource: string, operation: string): boolean {
  const show = property.displayOptions?.show;
  return Boolean(show?.resource?.includes(resource) && show.operation?.includes(operation));
}

function conditionNames(property: INodeProperties): string[] {
  return [...Object.keys(property.displayOptions?.show ?? {}), ...Object.keys(property.displayOptions?.hide ?? {})];
}

/** Every combination of the values of the fields that other fields of the operation depend on (QR Type, Return All, ...). */
function choices(resource: string, operation: string): INodeParameters[] {
  const own = built.filter((property) => isUnder(property, resource, operation));
  const controlling = [...new Set(own.flatMap(conditionNames))].filter((name) => !SELECTORS.has(name) && !name.startsWith('@'));
  let combinations: INodeParameters[] = [{}];
  for (const name of controlling) {
    const property = own.find((candidate) => candidate.name === name);
    if (!property) throw new Error(`${resource} ${operation}: a field depends on "${name}", which the operation does not have`);
    const values: NodeParameterValue[] =
      property.type === 'boolean' ? [true, false] : (property.options ?? []).map((option) => (option as { value: NodeParameterValue }).value);
    combinations = combinations.flatMap((combination) => values.map((value) => ({ ...combination, [name]: value })));
  }
  return combinations;
}

const node = (parameters: INodeParameters): INode => ({
  id: 'x',
  name: 'LinkShort',
  type: 'n8n-nodes-linkshort.linkShort',
  typeVersion: VERSION,
  position: [0, 0],
  parameters,
});

/** The node's parameters as the editor keeps them: only the displayed ones, with their defaults. */
const displayed = (values: INodeParameters) => NodeHelpers.getNodeParameters(built, values, true, false, { typeVersion: VERSION }, linkShortDescription) ?? {};

function sample(property: INodeProperties): NodeParameterValue {
  if (property.type === 'number') return 1;
  if (property.type === 'options') return property.default as NodeParameterValue;
  return 'sample';
}

let sandbox: Sandbox;
let admin: Credentials;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimit: { limit: 10_000, windowMs: 60_000 } });
  admin = { baseUrl: sandbox.baseUrl, apiKey: sandbox.adminKey };
});
afterAll(() => sandbox.close());

describe('the built LinkShort node description', () => {
  it('has every operation of the sources, each field placed under its resource and operation', () => {
    expect(operations.length).toBe(29);
    for (const { resource, operation, declared } of operations) {
      for (const property of declared) {
        expect({
          resource,
          operation,
          field: property.name,
          placed: built.some((candidate) => candidate.name === property.name && isUnder(candidate, resource, operation)),
        }).toEqual({
          resource,
          operation,
          field: property.name,
          placed: true,
        });
      }
    }
  });

  it('lists in Resource each resource the node runs, under the name it declares: Link first, then the others sorted by that name', () => {
    const selector = built.find((property) => property.name === 'resource');
    const listed = (selector?.options ?? []).map((option) => ({ ...(option as { name: string; value: string }) }));
    const declared = Object.entries(resources).map(([value, resource]) => ({ name: resource.displayName, value, declaredValue: resource.name }));
    expect(declared.map(({ declaredValue }) => declaredValue)).toEqual(declared.map(({ value }) => value));
    const [first, ...others] = declared.map(({ name, value }) => ({ name, value }));
    expect(listed).toEqual([first, ...others.sort((a, b) => a.name.localeCompare(b.name))]);
    expect(listed.map(({ name }) => name)).toEqual(['Link', 'Account', 'CTA Overlay', 'Domain', 'Pixel', 'Plan', 'QR Code', 'Splash Page', 'User']);
  });

  it('keeps the show and hide conditions each field declares, adding its resource and operation', () => {
    for (const { resource, operation, declared } of operations) {
      for (const property of declared) {
        // A field kept under one name for some versions only (Create's Additional Fields) is found by its version condition too.
        const sameVersions = (candidate: INodeProperties) =>
          JSON.stringify(candidate.displayOptions?.show?.['@version']) === JSON.stringify(property.displayOptions?.show?.['@version']);
        const placed = built.find((candidate) => candidate.name === property.name && isUnder(candidate, resource, operation) && sameVersions(candidate))!;
        expect({ field: `${resource} ${operation} ${property.name}`, displayOptions: placed.displayOptions }).toEqual({
          field: `${resource} ${operation} ${property.name}`,
          displayOptions: {
            show: { ...property.displayOptions?.show, resource: [resource], operation: [operation] },
            ...(property.displayOptions?.hide ? { hide: property.displayOptions.hide } : {}),
          },
        });
      }
    }
  });

  const cases = operations.flatMap(({ resource, operation }) =>
    choices(resource, operation).map((choice): [string, INodeParameters] => [
      `${resource} ${operation} ${JSON.stringify(choice)}`,
      { resource, operation, ...choice },
    ]),
  );

  it.each(cases)('%s: the fields n8n shows are exactly those the operation reads, and filling the required ones lets n8n run it', async (_name, values) => {
    const shown = Object.keys(displayed(values)).filter((name) => !SELECTORS.has(name));
    const read = new Set<string>();
    await executeNode(admin, values, [{ json: {} }], { onParameterRead: (name) => read.add(name) }).catch(() => undefined);
    const used = [...read].filter((name) => !SELECTORS.has(name));
    expect(shown.sort()).toEqual(used.sort());

    const required = built.filter(
      (property) =>
        property.required && shown.includes(property.name) && NodeHelpers.displayParameter(values, property, { typeVersion: VERSION }, linkShortDescription),
    );
    expect(required.map((property) => property.name).filter((name) => !used.includes(name))).toEqual([]);
    const filled = displayed({ ...Object.fromEntries(required.map((property) => [property.name, sample(property)])), ...values });
    expect(NodeHelpers.getNodeParametersIssues(built, node(filled), linkShortDescription)).toBeNull();
  });
});
