/** What other plugins import from rest-api4: the route builder, to mount the end-points at more paths. */
export { makeApi4Routes, type RestApi4Binding } from './routes';
