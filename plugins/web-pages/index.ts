/** What other plugins use: the shared layout, page access, CSRF, and the hooks this plugin owns. */
export { explorerExamples, webLinks, type ExplorerExample, type WebLink } from './hooks';
export {
  ASSET_PREFIX,
  contentSecurityPolicy,
  escapeHtml,
  isLoggedIn,
  jsonForScript,
  renderPage,
  sendHtml,
  type PageOptions,
  type SendOptions,
} from './layout';
export { admit, visibleLinks } from './gate';
export { Csrf, PRELOGIN_COOKIE } from './csrf';
export { loginForm } from './login-form';
export { staticFiles } from './assets';
export { callAs, canRun, holdsPermission, listActions, rowsOf, type Scope } from './platform';
export type { WebPages } from './register';
import './types';
