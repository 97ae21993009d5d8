/** The OpenAPI document builder and the service other code (crm docs) reads the document from. */
export { buildOpenApi, type OpenApiSources } from './generate';
export { fieldSchema, rowSchema, toOpenApiSchema } from './schema';
export type { OpenApiService } from './register';
import './types';
