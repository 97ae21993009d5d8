/** Container names the openapi plugin registers (declaration merging on the kernel's Cradle). */
import type { OpenApiService } from './register';

declare module '../../kernel/types' {
  interface Cradle {
    openApi: OpenApiService;
  }
}
