import { Type } from 'class-transformer';
import { IsInt, Matches, Max, Min } from 'class-validator';

/**
 * The deployment's settings for approvers outside the console: deciding from Slack or Teams
 * (docs/notifications.md) and the oversight of how people decide (docs/approver-guide.md). AppConfig
 * extends this class, so these are read, validated and documented like every other setting.
 */
export class ApproverSettings {
  /**
   * Where Teams bot tokens come from: the OpenID metadata of the Bot Framework (its `jwks_uri`
   * lists the keys that sign the tokens Teams sends the bot endpoint).
   */
  @Matches(/^https?:\/\/[^\s?#]+$/, {
    message: 'TEAMS_BOT_OPENID_METADATA_URL must be an http(s):// URL (no query)',
  })
  TEAMS_BOT_OPENID_METADATA_URL =
    'https://login.botframework.com/v1/.well-known/openidconfiguration';

  /** The `iss` a Teams bot token must carry, exactly. */
  @Matches(/^\S{1,500}$/, { message: 'TEAMS_BOT_ISSUER must be the issuer, without spaces' })
  TEAMS_BOT_ISSUER = 'https://api.botframework.com';

  /**
   * A person is flagged when their latest this-many decisions hold no rejection while the median
   * time from opening the approval page to deciding is under OVERSIGHT_FLAG_MEDIAN_SECONDS.
   */
  @Type(() => Number)
  @IsInt({ message: 'OVERSIGHT_FLAG_DECISIONS must be an integer from 2 to 1000' })
  @Min(2, { message: 'OVERSIGHT_FLAG_DECISIONS must be an integer from 2 to 1000' })
  @Max(1000, { message: 'OVERSIGHT_FLAG_DECISIONS must be an integer from 2 to 1000' })
  OVERSIGHT_FLAG_DECISIONS: number = 20;

  @Type(() => Number)
  @IsInt({ message: 'OVERSIGHT_FLAG_MEDIAN_SECONDS must be an integer from 1 to 3600' })
  @Min(1, { message: 'OVERSIGHT_FLAG_MEDIAN_SECONDS must be an integer from 1 to 3600' })
  @Max(3600, { message: 'OVERSIGHT_FLAG_MEDIAN_SECONDS must be an integer from 1 to 3600' })
  OVERSIGHT_FLAG_MEDIAN_SECONDS: number = 10;
}
