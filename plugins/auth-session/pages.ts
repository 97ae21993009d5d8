/** The minimal login and logout pages. Every value put in the HTML is escaped. */
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:22rem;margin:4rem auto;padding:0 1rem}label,input,button{display:block;width:100%;margin:.3rem 0}input{padding:.4rem}p.error{color:#a00}</style>
</head><body>${body}</body></html>
`;

export function loginPage(destination: string, error?: string): string {
  return page(
    'Log in',
    `<h1>Log in</h1>
${error ? `<p class="error" role="alert">${escape(error)}</p>` : ''}
<form method="post" action="/crm/login">
<input type="hidden" name="destination" value="${escape(destination)}">
<label for="u">Username</label><input id="u" name="username" autocomplete="username" required autofocus>
<label for="p">Password</label><input id="p" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Log in</button>
</form>`,
  );
}

export function logoutPage(): string {
  return page(
    'Log out',
    `<h1>Log out</h1>
<form method="post" action="/crm/logout"><button type="submit">Log out</button></form>`,
  );
}
