// Starts Swagger UI on this deployment's OpenAPI document; validatorUrl null keeps it offline.
window.addEventListener('load', function () {
  window.SwaggerUIBundle({
    url: '/v1/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: false,
  });
});
