import type { DestinationUse } from '../destinations/destination-decision';
import { tlsDestination } from '../destinations/destination-origin';
import type { SecretUse } from '../secrets/secret-grants.service';
import { hecEndpoint, type SplunkHecSink, type SyslogSink } from './sink-config';

/**
 * Where a sink connects, as the grants see it (docs/security.md "Destinations"): a syslog sink's
 * `tls://host:port`, and the collector's origin the HEC token is released for. Shared by the
 * shipper (checked before each batch) and the API (the status names the missing grant). Pure.
 */
export function syslogDestination(
  tenant: string,
  sink: SyslogSink,
): { use: DestinationUse; host: string; port: number } | { problem: string } {
  const destination = tlsDestination(sink.host, sink.port);
  if ('problem' in destination) return destination;
  return {
    use: { tenant, origin: destination.origin, what: `the syslog sink "${sink.name}"` },
    host: destination.host,
    port: destination.port,
  };
}

export function hecTokenUse(tenant: string, sink: SplunkHecSink): SecretUse {
  return {
    tenant,
    envName: sink.token_env,
    destination: hecEndpoint(sink.url),
    what: 'the Splunk HEC token',
  };
}
