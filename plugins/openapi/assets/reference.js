// Starts Swagger UI on the API reference page (a file, not an inline script: the page's policy allows no inline script).
'use strict';

window.addEventListener('DOMContentLoaded', () => {
  const root = document.getElementById('reference');
  window.ui = SwaggerUIBundle({
    url: root.dataset.url,
    domNode: root,
    deepLinking: true,
    // A search box over the tags (one per entity): with every entity plugin on, the list is long, and
    // Swagger UI only renders the rows in view once there are 150 or more.
    filter: true,
    // Calls made with "Try it out" carry the session cookie; the CSRF guard wants this header.
    requestInterceptor: (request) => {
      request.headers['X-Requested-With'] = 'XMLHttpRequest';
      return request;
    },
  });
});
