/**
 * Runs the built LinkShort nodes through n8n's own engine code: a `Workflow` from n8n-workflow
 * holding the node, and n8n-core's real execution contexts (ExecuteContext, LoadOptionsContext,
 * PollContext). The only stand-in is the server-side credentials store, which hands the
 * credential's data over and applies its generic `authenticate` block, as n8n's server does.
 */
import { CredentialTestContext, ExecuteContext, LoadOptionsContext, PollContext, PollTriggerExecutor, TriggersAndPollers } from 'n8n-core';
import {
  createRunExecutionData,
  NodeHelpers,
  Workflow,
  type ICredentialDataDecryptedObject,
  type IDataObject,
  type IHttpRequestOptions,
  type INode,
  type INodeExecutionData,
  type INodeParameters,
  type INodeType,
  type INodeTypeDescription,
  type INodeTypes,
  type IWorkflowExecuteAdditionalData,
  type WorkflowExecuteMode,
} from 'n8n-workflow';
import { warnIfStale } from '../support/built.cjs';

warnIfStale(['nodes']);

/* eslint-disable @typescript-eslint/no-require-imports */
const { LinkShort } = require('../../nodes/dist/nodes/LinkShort/LinkShort.node.js') as { LinkShort: new () => INodeType };
const { LinkShortApi } = require('../../nodes/dist/credentials/LinkShortApi.credentials.js') as {
  LinkShortApi: new () => { authenticate: { properties: { headers: Record<string, string> } }; properties: unknown[] };
};
let LinkShortTrigger: (new () => INodeType) | undefined;
try {
  LinkShortTrigger = (require('../../nodes/dist/nodes/LinkShortTrigger/LinkShortTrigger.node.js') as { LinkShortTrigger: new () => INodeType })
    .LinkShortTrigger;
} catch {
  LinkShortTrigger = undefined;
}

export const NODE_TYPE = 'n8n-nodes-linkshort.linkShort';
export const TRIGGER_TYPE = 'n8n-nodes-linkshort.linkShortTrigger';

const nodeTypeInstances: Record<string, INodeType> = { [NODE_TYPE]: new LinkShort(), ...(LinkShortTrigger ? { [TRIGGER_TYPE]: new LinkShortTrigger() } : {}) };

/** The version n8n gives a node newly added in the editor. */
export function latestVersion(description: INodeTypeDescription): number {
  return description.defaultVersion ?? Math.max(...[description.version].flat());
}

/** The LinkShort node's description as n8n loads it from the built package. */
export const linkShortDescription = nodeTypeInstances[NODE_TYPE]!.description;
/** The names of the node's "From list" search methods. */
export const listSearchMethods = Object.keys(nodeTypeInstances[NODE_TYPE]!.methods?.listSearch ?? {});

const nodeTypes: INodeTypes = {
  getByName: (name) => nodeTypeInstances[name]!,
  getByNameAndVersion: (name) => nodeTypeInstances[name]!,
  getKnownTypes: () => ({}),
};

export interface Credentials {
  baseUrl: string;
  apiKey: string;
}

/** Every request n8n's HTTP helper sent, after authentication (to check headers and counts). */
export const sentRequests: IHttpRequestOptions[] = [];

function resolveCredentialExpression(value: string, credentials: ICredentialDataDecryptedObject): string {
  return value.replace(/^=/, '').replace(/\{\{\s*\$credentials\.(\w+)\s*\}\}/g, (_match, key: string) => String(credentials[key] ?? ''));
}

function additionalData(credentials: Credentials): IWorkflowExecuteAdditionalData {
  const credentialType = new LinkShortApi();
  const credentialsHelper = {
    getParentTypes: () => [],
    isCredentialUsableByNode: () => true,
    preAuthentication: async () => undefined,
    runPreAuthentication: async () => undefined,
    getDecrypted: async () => ({ ...credentials }),
    getCredentialsProperties: () => credentialType.properties,
    authenticate: async (data: ICredentialDataDecryptedObject, _type: string, requestOptions: IHttpRequestOptions) => {
      const headers = { ...(requestOptions.headers ?? {}) } as IDataObject;
      for (const [name, value] of Object.entries(credentialType.authenticate.properties.headers)) {
        headers[name] = resolveCredentialExpression(value, data);
      }
      const authenticated = { ...requestOptions, headers };
      sentRequests.push(authenticated);
      return authenticated;
    },
  };
  return {
    credentialsHelper,
    currentNodeParameters: undefined,
    executeWorkflow: async () => ({ data: [], executionId: '' }),
    restApiUrl: 'http://127.0.0.1:5678/rest',
    instanceBaseUrl: 'http://127.0.0.1:5678',
    formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
    webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
    webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
    webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
    variables: {},
    logAiEvent: () => undefined,
    getRunExecutionData: async () => undefined,
    startRunnerTask: async () => {
      throw new Error('no task runner in tests');
    },
  } as unknown as IWorkflowExecuteAdditionalData;
}

/**
 * n8n's credential test of a LinkShort API credential as n8n's server runs it: the method the
 * node names in `testedBy`, called on n8n-core's CredentialTestContext (its `request` helper).
 */
export async function testCredential(data: { baseUrl: string; apiKey: string }) {
  const { description, methods } = nodeTypeInstances[NODE_TYPE]!;
  const name = description.credentials?.find((credential) => credential.name === 'linkShortApi')?.testedBy;
  if (typeof name !== 'string' || !methods?.credentialTest?.[name]) throw new Error('the node names no credential test method');
  const context = new CredentialTestContext(additionalData({ baseUrl: '', apiKey: '' }));
  return await methods.credentialTest[name].call(context, { id: '1', name: 'LinkShort account', type: 'linkShortApi', data: { ...data } });
}

/** A workflow with one node of `type`, its parameters completed with their defaults as n8n's editor does. */
export function workflowWith(
  type: string,
  parameters: INodeParameters,
  options: { continueOnFail?: boolean; staticData?: IDataObject; typeVersion?: number; timezone?: string } = {},
) {
  const nodeType = nodeTypeInstances[type]!;
  const typeVersion = options.typeVersion ?? latestVersion(nodeType.description);
  const completed = NodeHelpers.getNodeParameters(nodeType.description.properties, parameters, true, false, { typeVersion }, nodeType.description) ?? {};
  const node: INode = {
    id: 'a7b3c9d1-0000-4000-8000-000000000001',
    name: nodeType.description.defaults.name ?? 'LinkShort',
    type,
    typeVersion,
    position: [0, 0],
    parameters: completed,
    credentials: { linkShortApi: { id: '1', name: 'LinkShort account' } },
    ...(options.continueOnFail ? { continueOnFail: true, onError: 'continueRegularOutput' as const } : {}),
  };
  const workflow = new Workflow({
    id: 'wf-linkshort-test',
    name: 'LinkShort test',
    nodes: [node],
    connections: {},
    active: false,
    nodeTypes,
    staticData: options.staticData ?? {},
    settings: { timezone: options.timezone ?? 'UTC' },
  });
  return { workflow, node };
}

/** Runs the LinkShort node's `execute()` through n8n-core's ExecuteContext over the given input items. */
export async function executeNode(
  credentials: Credentials,
  parameters: INodeParameters,
  input: INodeExecutionData[] = [{ json: {} }],
  options: { continueOnFail?: boolean; onParameterRead?: (name: string) => void; typeVersion?: number; timezone?: string; staticData?: IDataObject } = {},
): Promise<INodeExecutionData[]> {
  const { workflow, node } = workflowWith(NODE_TYPE, parameters, options);
  const mode: WorkflowExecuteMode = 'manual';
  const runExecutionData = createRunExecutionData();
  const executeData = { node, data: { main: [input] }, source: null };
  const context = new ExecuteContext(workflow, node, additionalData(credentials), mode, runExecutionData, 0, input, { main: [input] }, executeData, []);
  const { onParameterRead } = options;
  if (onParameterRead) {
    const read = context.getNodeParameter.bind(context);
    Object.assign(context, {
      getNodeParameter: (...args: Parameters<typeof read>) => {
        onParameterRead(args[0]);
        return read(...args);
      },
    });
  }
  const result = await nodeTypeInstances[NODE_TYPE]!.execute!.call(context);
  return (result as INodeExecutionData[][])[0] ?? [];
}

/** Runs a load-options method of the LinkShort node (or of `type`) through n8n-core's LoadOptionsContext. */
export async function loadOptions(credentials: Credentials, method: string, type: string = NODE_TYPE) {
  const { workflow, node } = workflowWith(type, {});
  const context = new LoadOptionsContext(workflow, node, additionalData(credentials), '');
  const methods = nodeTypeInstances[type]!.methods!.loadOptions!;
  return await methods[method]!.call(context);
}

/** Runs one call of a "From list" search method of the LinkShort node through n8n-core's LoadOptionsContext. */
export async function listSearch(credentials: Credentials, method: string, filter?: string, paginationToken?: string) {
  const { workflow, node } = workflowWith(NODE_TYPE, {});
  const context = new LoadOptionsContext(workflow, node, additionalData(credentials), '');
  const methods = nodeTypeInstances[NODE_TYPE]!.methods!.listSearch!;
  return await methods[method]!.call(context, filter, paginationToken);
}

/**
 * Runs the trigger's `poll()` through n8n-core's PollContext with the given static data;
 * `pollBudgetMs` is what the context's `getPollBudgetMs()` says (n8n's durable scheduler sets it).
 */
export async function poll(
  credentials: Credentials,
  parameters: INodeParameters,
  staticData: IDataObject,
  mode: WorkflowExecuteMode = 'trigger',
  pollBudgetMs?: number,
  timezone?: string,
) {
  const { workflow, node } = workflowWith(TRIGGER_TYPE, parameters, { staticData: { [`node:${'LinkShort Trigger'}`]: staticData }, timezone });
  const budget = pollBudgetMs === undefined ? undefined : () => pollBudgetMs;
  const context = new PollContext(workflow, node, additionalData(credentials), mode, 'activate', undefined, undefined, undefined, undefined, undefined, budget);
  const result = await nodeTypeInstances[TRIGGER_TYPE]!.poll!.call(context);
  return { result, staticData: workflow.staticData[`node:LinkShort Trigger`] as IDataObject };
}

/**
 * An active LinkShort Trigger as n8n-core's ActiveWorkflowTriggers holds one: one Workflow and one
 * PollContext for every poll of the node, each poll run by n8n-core's own PollTriggerExecutor
 * (which n8n's cron calls on schedule without waiting for the previous poll). `emitted` collects
 * what reached `__emit`, `errors` what reached `__emitError`; `staticData()` is the node's bucket
 * that n8n saves.
 */
export function activeTrigger(credentials: Credentials, parameters: INodeParameters, staticData: IDataObject = {}) {
  const { workflow, node } = workflowWith(TRIGGER_TYPE, parameters, { staticData: { 'node:LinkShort Trigger': staticData } });
  const emitted: INodeExecutionData[][][] = [];
  const errors: unknown[] = [];
  const context = new PollContext(
    workflow,
    node,
    additionalData(credentials),
    'trigger',
    'activate',
    (data) => emitted.push(data),
    (error) => errors.push(error),
  );
  const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
  const logger = { ...quiet, scoped: () => quiet };
  const span = { setStatus: () => undefined };
  const tracing = {
    startSpan: async (_options: unknown, run: (s: typeof span) => Promise<unknown>) => await run(span),
    startNewTraceSpan: async (_options: unknown, run: (s: typeof span) => Promise<unknown>) => await run(span),
    pickWorkflowAttributes: () => ({}),
    pickNodeAttributes: () => ({}),
  };
  const executor = new PollTriggerExecutor(
    logger as unknown as ConstructorParameters<typeof PollTriggerExecutor>[0],
    new TriggersAndPollers(),
    tracing as unknown as ConstructorParameters<typeof PollTriggerExecutor>[2],
    { error: () => undefined } as unknown as ConstructorParameters<typeof PollTriggerExecutor>[3],
  );
  const executePoll = executor.create(workflow, node, context, () => true);
  return {
    emitted,
    errors,
    /** One scheduled poll, as the cron runs it. */
    poll: async () => await executePoll(),
    staticData: () => workflow.staticData['node:LinkShort Trigger'] as IDataObject,
  };
}
