import { Injectable } from '@nestjs/common';
import { hostname } from 'node:os';
import type { AuditEventView } from '../audit/audit.service';
import { AppConfig } from '../config/app-config';
import { readCaFile } from '../common/ca-file';
import { Destinations, DestinationRefused } from '../destinations/destinations.service';
import { SecretGrants, SecretRefused } from '../secrets/secret-grants.service';
import { hecBody } from './hec-payload';
import { sendHec } from './hec-sender';
import { sendRelp } from './relp-sender';
import { hecEndpoint, type SinkConfig, type SyslogSink } from './sink-config';
import { hecTokenUse, syslogDestination } from './sink-destination';
import { SinkError } from './sink-error';
import { octetFrame, syslogMessage } from './syslog-frame';
import { sendSyslog } from './syslog-sender';

/**
 * Sends one batch of a tenant's events to one sink and returns when the sink acknowledged it;
 * throws a SinkError otherwise (with how many events at its head were acknowledged, over RELP).
 * Nothing connects to a sink whose origin is not granted for the tenant: a syslog sink's
 * `tls://host:port` is admitted by Destinations, the HEC token is released through SecretGrants
 * for the collector's origin (which admits it too). A CA file is read under CA_DIR at each batch,
 * so a replaced file takes effect without a restart.
 */
@Injectable()
export class SinkDelivery {
  private readonly host = hostname();

  constructor(
    private readonly config: AppConfig,
    private readonly grants: SecretGrants,
    private readonly destinations: Destinations,
  ) {}

  async send(tenant: string, sink: SinkConfig, events: AuditEventView[]): Promise<void> {
    const ca = sink.ca_file ? this.ca(sink.ca_file) : undefined;
    const timeoutMs = this.config.AUDIT_SINK_TIMEOUT_MS;
    switch (sink.kind) {
      case 'syslog': {
        // To the host and port as they were admitted (normalised as the grant compares them).
        const { host, port } = await this.admitSyslog(tenant, sink);
        const target = { host, port, ca, timeoutMs };
        const messages = events.map((e) => syslogMessage(e, this.host));
        if (sink.protocol === 'relp') return sendRelp(target, messages);
        return sendSyslog(target, messages.map(octetFrame).join(''));
      }
      case 'splunk_hec': {
        const endpoint = hecEndpoint(sink.url);
        const token = await this.grants
          .release(hecTokenUse(tenant, sink))
          .catch((error: unknown) => {
            if (error instanceof SecretRefused) {
              throw new SinkError(`${error.reason}: ${error.message}`);
            }
            throw error;
          });
        if (!token.mayGoTo(endpoint)) throw new SinkError('not_granted');
        const body = hecBody(events, { host: this.host, source: sink.source, index: sink.index });
        return sendHec({ endpoint, token: token.value, ca, timeoutMs }, body);
      }
    }
  }

  /** The syslog sink's destination, admitted for the tenant now; a `not_granted: …` SinkError if not. */
  private async admitSyslog(
    tenant: string,
    sink: SyslogSink,
  ): Promise<{ host: string; port: number }> {
    const destination = syslogDestination(tenant, sink);
    if ('problem' in destination) throw new SinkError(`config: ${destination.problem}`);
    try {
      await this.destinations.admit(destination.use);
    } catch (error) {
      if (error instanceof DestinationRefused) throw new SinkError(`not_granted: ${error.message}`);
      throw error;
    }
    return destination;
  }

  private ca(file: string): Buffer {
    try {
      return readCaFile(this.config.CA_DIR, file, 'ca_file');
    } catch (error) {
      throw new SinkError((error as Error).message);
    }
  }
}
