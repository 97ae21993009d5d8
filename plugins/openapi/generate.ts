/**
 * The OpenAPI 3.1 document, generated from what runs: the action registry (every APIv4 entity and
 * action as a path, the params schema each action is validated with), entity metadata (row schemas)
 * and the APIv3 catalogue (one end-point, its entities, actions and filter fields). New entities and
 * actions appear without changes here.
 */
import type { ActionListing } from '../../kernel';
import type { EntityRegistry } from '../entity-core';
import { rowSchema, toOpenApiSchema, type Schema } from './schema';
import { API4_BODY_SCHEMAS, api4RequestBody, CSV_CONTENT } from './api4-request';

export interface OpenApiSources {
  title: string;
  version: string;
  actions: ActionListing[];
  /** The params schema an action was defined with. */
  paramsOf(version: number, entity: string, action: string): object | undefined;
  entities: EntityRegistry;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const ROW_ACTIONS = new Set(['get', 'create', 'update', 'save', 'delete', 'replace']);
const security = [{ xCrmAuth: [] }, { bearer: [] }, { basic: [] }, { session: [] }];

const ERROR_RESPONSES: Record<string, string> = {
  '400': 'Invalid params, or a browser call without X-Requested-With (CSRF guard)',
  '401': 'A credential was sent and refused (AuthX)',
  '403': 'Not allowed: the caller lacks the permission',
  '404': 'No such entity or action',
  '500': 'Unexpected error (details only for callers with view debug output)',
};
const errorRefs = Object.fromEntries(
  Object.keys(ERROR_RESPONSES).map((status) => [status, { $ref: `#/components/responses/Api4Error${status}` }]),
);

export function buildOpenApi(src: OpenApiSources): Record<string, unknown> {
  const schemas: Record<string, Schema> = {
    ...API4_BODY_SCHEMAS,
    Api4Error: {
      type: 'object',
      properties: {
        error_code: { type: ['integer', 'string'] },
        error_message: { type: 'string' },
        status: { type: 'integer' },
      },
      required: ['error_message'],
    },
    Api3Result: {
      type: 'object',
      description:
        'APIv3 envelope; errors answer HTTP 200 with is_error 1 (the reference protocol), except transport-level refusals',
      properties: {
        is_error: { enum: [0, 1] },
        version: { const: 3 },
        count: { type: 'integer' },
        id: { type: ['integer', 'string'] },
        values: {},
        error_message: { type: 'string' },
        error_code: { type: ['string', 'integer'] },
      },
      required: ['is_error'],
    },
  };
  const entityNames = new Set(src.entities.names(4));
  for (const name of [...src.entities.names()].sort()) schemas[name] = rowSchema(src.entities.get(name));

  const paths: Record<string, Record<string, unknown>> = {};
  const v4 = src.actions.filter((a) => a.version === 4);
  // A generic action validates every entity with one schema: it is written once, as a component.
  const sharedParams = new Map<string, string>();
  const paramsFor = (action: ActionListing, hasRow: boolean): Schema => {
    const params = toOpenApiSchema(src.paramsOf(4, action.entity, action.action) ?? { type: 'object' }) as Schema;
    if (hasRow && params.properties && (params.properties as Schema).values) {
      (params.properties as Schema).values = { ...ref(action.entity), description: 'Field values to write' };
      return params;
    }
    if (!action.generic) return params;
    const key = JSON.stringify(params);
    let name = sharedParams.get(key);
    if (!name) {
      name = `Api4Params.${action.action}`;
      for (let i = 2; schemas[name]; i++) name = `Api4Params.${action.action}${i}`;
      sharedParams.set(key, name);
      schemas[name] = params;
    }
    return ref(name);
  };
  // One success response per entity with rows, one for every other action.
  const responses: Record<string, Schema> = {};
  const resultResponse = (entity: string | undefined, csv = false): string => {
    const name = entity ? `Api4Rows.${entity}${csv ? '.csv' : ''}` : 'Api4Result';
    responses[name] ??= {
      description: entity ? `${entity} records${csv ? ' (as CSV with format=csv)' : ''}` : 'The result',
      content: {
        ...(csv ? CSV_CONTENT : {}),
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              entity: { type: 'string' },
              action: { type: 'string' },
              version: { const: 4 },
              count: { type: 'integer' },
              countFetched: { type: 'integer' },
              values: { type: 'array', items: entity ? ref(entity) : {} },
            },
          },
        },
      },
    };
    return name;
  };
  for (const action of v4) {
    const hasRow = entityNames.has(action.entity) && ROW_ACTIONS.has(action.action);
    const params = paramsFor(action, hasRow);
    const csv = hasRow && action.action === 'get';
    paths[`/crm/ajax/api4/${action.entity}/${action.action}`] = {
      post: {
        operationId: `api4.${action.entity}.${action.action}`,
        tags: [action.entity],
        summary: action.description,
        description:
          `Permission: ${typeof action.permission === 'function' ? 'depends on the params' : JSON.stringify(action.permission)}. ` +
          `Plugin: ${action.plugin}.`,
        parameters: [{ $ref: '#/components/parameters/XRequestedWith' }],
        requestBody: api4RequestBody(params, csv),
        responses: {
          '200': { $ref: `#/components/responses/${resultResponse(hasRow ? action.entity : undefined, csv)}` },
          ...errorRefs,
        },
      },
    };
  }

  // APIv3: one end-point; each entity is one variant of the request body, naming its actions and filters.
  const v3 = new Map<string, string[]>();
  for (const v3Action of src.actions.filter((x) => x.version === 3))
    v3.set(v3Action.entity, [...(v3.get(v3Action.entity) ?? []), v3Action.action]);
  const variants = [...v3].map(([entity, actions]) => {
    const fields = src.entities.find(entity) ? [ref(entity)] : [];
    return {
      title: `${entity} (${actions.join(', ')})`,
      type: 'object',
      required: ['entity', 'action'],
      properties: {
        entity: { const: entity },
        action: { enum: actions },
        json: {
          type: 'object',
          description:
            'Params as JSON: filters and values by field name, return, options (sort, limit, offset), api.* chaining',
          ...(fields.length ? { allOf: fields } : {}),
          properties: {
            return: { type: ['array', 'string'], items: { type: 'string' } },
            options: { type: 'object' },
            sequential: { type: ['integer', 'boolean'] },
          },
        },
      },
    };
  });
  paths['/crm/ajax/rest'] = {
    post: {
      operationId: 'api3',
      tags: ['APIv3'],
      summary: 'APIv3 call (entity, action, json params)',
      description: 'The reference APIv3 REST protocol; GET is accepted for read actions.',
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: { oneOf: variants },
            encoding: { json: { contentType: 'application/json' } },
          },
        },
      },
      responses: {
        '200': { description: 'The APIv3 envelope', content: { 'application/json': { schema: ref('Api3Result') } } },
        '403': {
          description: 'Not allowed to use the API at all',
          content: { 'application/json': { schema: ref('Api3Result') } },
        },
      },
    },
  };

  return {
    openapi: '3.1.0',
    info: {
      title: src.title,
      version: src.version,
      description:
        'Generated from the action registry and entity metadata of the running service. ' +
        'APIv4: one path per entity and action; APIv3: the /crm/ajax/rest end-point.',
    },
    servers: [{ url: '/', description: 'This service' }],
    security,
    tags: [...new Set(v4.map((a) => a.entity))]
      .sort()
      .map((name) => ({ name }))
      .concat([{ name: 'APIv3' }]),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas,
      parameters: {
        XRequestedWith: {
          name: 'X-Requested-With',
          in: 'header',
          required: false,
          description: 'XMLHttpRequest: required for browser-session callers (CSRF guard)',
          schema: { type: 'string', enum: ['XMLHttpRequest'] },
        },
      },
      responses: {
        ...Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b))),
        ...Object.fromEntries(
          Object.entries(ERROR_RESPONSES).map(([status, description]) => [
            `Api4Error${status}`,
            { description, content: { 'application/json': { schema: ref('Api4Error') } } },
          ]),
        ),
      },
      securitySchemes: {
        xCrmAuth: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Crm-Auth',
          description: 'AuthX: "Bearer <API key or JWT>" (or "Basic base64(user:password)" where enabled)',
        },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'AuthX in the Authorization header: an API key or a JWT',
        },
        basic: { type: 'http', scheme: 'basic', description: 'AuthX with a username and password (opt-in per flow)' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'crm_session',
          description: 'Browser session from /crm/login; send X-Requested-With: XMLHttpRequest',
        },
      },
    },
  };
}
