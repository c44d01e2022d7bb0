/**
 * `GET /`: a small page that lists the books and keeps the list current over Server-Sent Events
 * (`GET /books/events`), with no reload and no build step: the browser's own `EventSource` does the work.
 */
import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { LIVE_PAGE } from './live-page';

@ApiExcludeController()
@Controller()
export class LivePageController {
  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  page(): string {
    return LIVE_PAGE;
  }
}
