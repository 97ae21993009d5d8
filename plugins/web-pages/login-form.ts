/** The login form, shared by the login page (auth-session) and the home page. */
import { escapeHtml } from './layout';

export interface LoginFormOptions {
  destination: string;
  /** The pre-login CSRF token (double-submit cookie). */
  csrf: string;
  error?: string;
}

const PASSWORD_INPUT =
  '<input id="login-password" name="password" type="password" autocomplete="current-password" required>';

export function loginForm(opts: LoginFormOptions): string {
  return `${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}
<form method="post" action="/crm/login" class="card narrow">
<input type="hidden" name="destination" value="${escapeHtml(opts.destination)}">
<input type="hidden" name="csrf" value="${escapeHtml(opts.csrf)}">
<label for="login-username">Username</label><input id="login-username" name="username" autocomplete="username" required autofocus>
<label for="login-password">Password</label>${PASSWORD_INPUT}
<p><button type="submit">Log in</button></p>
</form>`;
}
