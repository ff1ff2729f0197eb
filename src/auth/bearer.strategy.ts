import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import type { Caller } from './caller';
import { TokensService } from './tokens.service';

@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly tokens: TokensService) {
    super();
  }

  async validate(token: string): Promise<Caller | false> {
    return (await this.tokens.authenticate(token)) ?? false;
  }
}
