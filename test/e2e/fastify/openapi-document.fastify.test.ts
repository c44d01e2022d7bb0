/** The OpenAPI document suite, on an app served by Nest's Fastify platform: the same document. */
import './use-fastify';
import '../openapi-document.e2e.test';
