/**
 * Swagger UI at `/docs` and the OpenAPI 3.1 document at `/docs-json`. The document is built on its first request,
 * once the app has initialised: Svc documents its generated routes when SvcModule initialises.
 */
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

/** The bookstore's OpenAPI document, as `SwaggerModule.createDocument` builds it (call it after `app.init()`). */
export function createApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Svc bookstore')
    .setDescription(
      "The Svc example app: authors, books, tags and reviews. Reads are open; writes need an editor's bearer token (`pnpm token editor`).",
    )
    .setVersion('1.0.0')
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .addServer('/', 'This app')
    // Reads are open to everyone (the empty requirement), writes need a token whose role is `editor`.
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A token whose role is `editor` may write.' },
      'bearer',
    )
    .addSecurityRequirements({})
    .addSecurityRequirements('bearer')
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** Serves Swagger UI at `/docs` and the document at `/docs-json`; call it before `app.listen()` or `app.init()`. */
export function serveApiDocs(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => createApiDocument(app), {
    jsonDocumentUrl: 'docs-json',
    yamlDocumentUrl: 'docs-yaml',
  });
}
