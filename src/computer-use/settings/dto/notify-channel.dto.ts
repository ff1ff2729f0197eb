import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NOTIFY_KINDS, type NotifyKind } from '../config-bounds';

/**
 * One channel of `notify` as OpenAPI shows it. The checks are parse-notify.ts's, which names the
 * channel's index and the fields its kind takes in every refusal.
 */
export class NotifyChannelDto {
  @ApiProperty({ enum: NOTIFY_KINDS })
  kind: NotifyKind;

  @ApiPropertyOptional({
    description:
      'webhook: where to POST (https://, or http:// on loopback); its origin must be granted for secret_env',
    example: 'https://hooks.example.com/warden',
  })
  url?: string;

  @ApiPropertyOptional({
    description: 'webhook: the variable holding the HMAC-SHA256 signing secret',
    example: 'ACME_WARDEN_WEBHOOK_SECRET',
  })
  secret_env?: string;

  @ApiPropertyOptional({
    description:
      'slack, teams: the variable holding the incoming webhook (or Teams workflow) URL; its origin must be granted for the variable',
    example: 'ACME_SLACK_WEBHOOK_URL',
  })
  url_env?: string;

  @ApiPropertyOptional({
    description:
      "slack: the variable holding the Slack app's signing secret, granted for the webhook URL's origin; set, messages about a waiting write carry Approve and Reject (docs/notifications.md)",
    example: 'ACME_SLACK_SIGNING_SECRET',
  })
  signing_secret_env?: string;

  @ApiPropertyOptional({
    description:
      "teams: the Microsoft app id of the bot whose endpoint is Warden's; set, cards about a waiting write carry Approve and Reject (Action.Execute)",
    example: '00000000-0000-0000-0000-000000000000',
  })
  bot_app_id?: string;

  @ApiPropertyOptional({
    type: [String],
    description: 'email: 1-20 recipients; the SMTP server and sender are the deployment’s',
    example: ['sap-approvers@example.com'],
  })
  to?: string[];
}
