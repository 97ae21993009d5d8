/** Container names the web-pages plugin registers (declaration merging on the kernel's Cradle). */
import type { Csrf } from './csrf';
import type { WebPages } from './register';

declare module '../../kernel/types' {
  interface Cradle {
    /** CSRF tokens for form posts (session-bound; double-submit before login). */
    csrf: Csrf;
    /** What the pages collected at ready: links and explorer examples. */
    webPages: WebPages;
  }
}
