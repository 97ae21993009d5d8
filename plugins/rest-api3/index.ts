/** What other plugins import from rest-api3: the route builder, to mount the end-points at more paths. */
export { makeRoutes, type Endpoint, type RestApi3Binding } from './routes';
