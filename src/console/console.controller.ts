import { Controller, Get, Headers, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/permissions.decorator';
import { notFound } from '../common/domain-error';
import { ConsoleAsset, ConsoleAssets } from './console-assets';

/**
 * The console's own rules for the browser: scripts and styles only from these files (no inline
 * script, no eval), pictures only from the API or the blob: URLs the console makes of screenshots,
 * no forms posted anywhere (a form that reached the server would put the token in a URL), and no
 * HTML from strings (Trusted Types): the console builds its DOM node by node.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  'trusted-types none',
].join('; ');

/**
 * The approver and auditor console at `/console`. Its files are public: the API token lives in the
 * browser tab (sessionStorage) and every call the console makes carries it. Each page path
 * answers the same HTML; the console reads the path itself.
 */
@ApiExcludeController()
@Controller('console')
export class ConsoleController {
  constructor(private readonly assets: ConsoleAssets) {}

  @Get(['', 'approvals', 'approvals/:id', 'runs', 'runs/:id', 'audit', 'admin', 'chat-link'])
  @Public()
  page(
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() reply: FastifyReply,
  ): void {
    this.send(reply, this.asset('index.html'), ifNoneMatch);
  }

  @Get('assets/:file')
  @Public()
  file(
    @Param('file') file: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() reply: FastifyReply,
  ): void {
    this.send(reply, this.asset(file), ifNoneMatch);
  }

  private asset(name: string): ConsoleAsset {
    const asset = this.assets.get(name);
    if (!asset) throw notFound(`the console has no file ${name}`);
    return asset;
  }

  private send(reply: FastifyReply, asset: ConsoleAsset, ifNoneMatch?: string): void {
    void reply
      .header('Content-Security-Policy', CONSOLE_CSP)
      .header('X-Content-Type-Options', 'nosniff')
      .header('X-Frame-Options', 'DENY')
      .header('Referrer-Policy', 'no-referrer')
      .header('Cross-Origin-Opener-Policy', 'same-origin')
      // Revalidated on every load, so a deploy is picked up at once; an unchanged file costs a 304.
      .header('Cache-Control', 'no-cache')
      .header('ETag', asset.etag);
    if (ifNoneMatch === asset.etag) {
      void reply.code(304).send();
      return;
    }
    void reply.type(asset.type).send(asset.body);
  }
}
