/** What other plugins import from rest-api3: the route builder, to mount the end-points at more paths. */
export { makeRoutes } from './routes';
export type { Endpoint, RestApi3Binding } from './binding';
