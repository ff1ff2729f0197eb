/**
 * The value of a secret Warden uses for itself (the sign-in client secret, named by
 * OIDC_CLIENT_SECRET_ENV), read at the moment of use; undefined when unset or empty. Never granted
 * to a tenant (own-variables.ts), never sent anywhere but where Warden's own config says.
 */
export function ownSecret(envName: string): string | undefined {
  const value = process.env[envName];
  return value ? value : undefined;
}
