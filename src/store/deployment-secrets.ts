import { randomBytes } from 'node:crypto';
import type { Db } from './database.js';

const SECRET_BYTES = 32;

/**
 * The deployment's secret called `name`: the first instance to ask makes it (with
 * `make`, random bytes unless told otherwise, e.g. a private key), every other instance
 * reads that one. The insert does nothing when the name exists, so instances starting
 * together agree on one secret.
 */
export async function deploymentSecret(db: Db, name: string, make: () => Buffer = () => randomBytes(SECRET_BYTES)): Promise<Buffer> {
  await db
    .insertInto('deployment_secrets')
    .values({ name, secret: make().toString('base64url'), created_at: new Date().toISOString() })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const { secret } = await db.selectFrom('deployment_secrets').select('secret').where('name', '=', name).executeTakeFirstOrThrow();
  return Buffer.from(secret, 'base64url');
}
