import { Controller, Get, HttpCode, Logger, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { randomBytes } from 'node:crypto';
import { invalid } from '../../common/domain-error';
import { sha256Hex } from '../../common/sha256';
import { AppConfig } from '../../config/app-config';
import type { AuthRequest } from '../permissions.guard';
import { Public, SignedIn } from '../permissions.decorator';
import { cookieNames, readCookie, setCookie } from '../sessions/session-cookie';
import { SessionsService } from '../sessions/sessions.service';
import { OidcClientService, SignInRefused } from './oidc-client.service';
import { LOGIN_SECONDS, OidcLoginsRepository } from './oidc-logins.repository';

/** Where the console may send a person back to after sign-in: its own pages only. */
const RETURN_TO = /^\/console(\/[A-Za-z0-9/-]{0,200})?$/;

/** Why a sign-in did not work, as the console's sign-in page says it (`?signin_error=`). */
export type SignInError = 'expired' | 'account' | 'failed';

/**
 * Sign-in through the company's identity provider (docs/admin-oidc.md): the browser routes of the
 * authorization code flow with PKCE, and sign-out. Not part of the JSON API, so not in OpenAPI.
 */
@ApiExcludeController()
@Controller('auth')
export class OidcController {
  private readonly logger = new Logger(OidcController.name);

  constructor(
    private readonly oidc: OidcClientService,
    private readonly logins: OidcLoginsRepository,
    private readonly sessions: SessionsService,
    private readonly config: AppConfig,
  ) {}

  /** What the console's sign-in page offers. */
  @Get('status')
  @Public()
  status() {
    return { oidc: this.oidc.enabled };
  }

  /** Sends the browser to the identity provider; the checks stay here, named by a cookie. */
  @Get('login')
  @Public()
  async login(@Query('return_to') returnTo: string | undefined, @Res() reply: FastifyReply) {
    const { url, checks } = await this.oidc.start();
    const flow = randomBytes(32).toString('base64url');
    const back = returnTo !== undefined && RETURN_TO.test(returnTo) ? returnTo : '/console';
    await this.logins.insert(sha256Hex(flow), checks, back);
    const names = this.names();
    void reply
      .header('Cache-Control', 'no-store')
      .header(
        'Set-Cookie',
        setCookie(names.login, flow, { secure: names.secure, maxAgeSeconds: LOGIN_SECONDS }),
      )
      .redirect(url, 303);
  }

  /** The provider sends the browser back here with a code; a session starts. */
  @Get('callback')
  @Public()
  async callback(@Req() request: AuthRequest, @Res() reply: FastifyReply) {
    const names = this.names();
    const flow = readCookie(request.headers.cookie, names.login);
    const checks = flow ? await this.logins.take(sha256Hex(flow)) : null;
    const clearLogin = setCookie(names.login, '', { secure: names.secure, maxAgeSeconds: 0 });
    void reply.header('Cache-Control', 'no-store');
    if (!checks) return this.failed(reply, clearLogin, 'expired');
    const at = request.url.indexOf('?');
    const query = at >= 0 ? request.url.slice(at) : '';
    let cookieValue: string;
    try {
      const person = await this.oidc.finish(query, checks);
      cookieValue = await this.sessions.start(person);
    } catch (error) {
      if (error instanceof SignInRefused) {
        this.logger.warn(`sign-in refused: ${error.message}`);
        return this.failed(reply, clearLogin, 'account');
      }
      this.logger.warn(`sign-in failed: ${error instanceof Error ? error.message : String(error)}`);
      return this.failed(reply, clearLogin, 'failed');
    }
    void reply
      .header('Set-Cookie', [
        clearLogin,
        setCookie(names.session, cookieValue, { secure: names.secure }),
      ])
      .redirect(checks.returnTo, 303);
  }

  /** Ends the console session at Warden (the row is revoked) and clears the cookie. */
  @Post('logout')
  @HttpCode(204)
  @SignedIn()
  async logout(@Req() request: AuthRequest, @Res() reply: FastifyReply) {
    const names = this.names();
    const value = readCookie(request.headers.cookie, names.session);
    if (!request.wardenSession || !value) {
      throw invalid('sign-out ends a console session; an API token is revoked with the CLI');
    }
    await this.sessions.end(value);
    void reply
      .header(
        'Set-Cookie',
        setCookie(names.session, '', { secure: names.secure, maxAgeSeconds: 0 }),
      )
      .code(204)
      .send();
  }

  private failed(reply: FastifyReply, clearLogin: string, why: SignInError): void {
    void reply.header('Set-Cookie', clearLogin).redirect(`/console?signin_error=${why}`, 303);
  }

  private names() {
    if (!this.config.PUBLIC_URL)
      throw invalid('sign-in through an identity provider is not configured');
    return cookieNames(this.config.PUBLIC_URL);
  }
}
