import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SINK_KINDS, type SinkKind, SYSLOG_PROTOCOLS, type SyslogProtocol } from '../sink-config';

/**
 * The body of `PUT /api/admin/audit-sinks` as OpenAPI shows it. The checks are parse-sinks.ts's,
 * which names the sink's index and the fields its kind takes in every refusal.
 */
export class AuditSinkDto {
  @ApiProperty({ description: '1-63 of a-z, 0-9, _ and -; unique in the tenant', example: 'siem' })
  name: string;

  @ApiProperty({ enum: SINK_KINDS })
  kind: SinkKind;

  @ApiPropertyOptional({ description: 'syslog: the receiver (TLS)', example: 'syslog.example.com' })
  host?: string;

  @ApiPropertyOptional({ description: 'syslog: its TLS port', example: 6514 })
  port?: number;

  @ApiPropertyOptional({
    enum: SYSLOG_PROTOCOLS,
    description:
      'syslog: rfc5425 (octet-counted frames, no acknowledgement; the default) or relp (RELP over TLS, each message acknowledged, as rsyslog imrelp with tls="on")',
  })
  protocol?: SyslogProtocol;

  @ApiPropertyOptional({
    description:
      'splunk_hec: the collector (https://, or http:// on loopback); events go to <url>/services/collector/event',
    example: 'https://splunk.example.com:8088',
  })
  url?: string;

  @ApiPropertyOptional({
    description:
      "splunk_hec: the variable holding the HEC token; the deployment operator grants it for the url's origin",
    example: 'ACME_SPLUNK_HEC_TOKEN',
  })
  token_env?: string;

  @ApiPropertyOptional({ description: 'splunk_hec: the index (else the token’s default)' })
  index?: string;

  @ApiPropertyOptional({ description: 'splunk_hec: the source field (default warden)' })
  source?: string;

  @ApiPropertyOptional({
    description: "PEM CA certificates under the deployment's CA_DIR (left out: the system's CAs)",
    example: '/etc/warden/ca/siem.pem',
  })
  ca_file?: string;
}

export class AuditSinksDto {
  @ApiProperty({ type: [AuditSinkDto], description: 'at most 10; a GET body may be PUT back' })
  sinks: AuditSinkDto[];
}
