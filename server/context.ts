import type { Database } from './db/client';
import type { Env } from './env';
import type { AuthService } from './features/auth/auth.service';
import type { createLineLoginService } from './features/auth/line-login.service';
import type { TokenSigner } from './features/auth/tokens';
import type { LineLoginClient } from './integrations/line/login-client';

/** What route modules need, built once by buildApp(). Features receive it instead of importing each other. */
export interface AppContext {
  env: Env;
  db: Database;
  engine: 'pglite' | 'postgres';
  salonId: number;
  now: () => Date;
  tokens: TokenSigner;
  auth: AuthService;
  line: LineLoginClient;
  lineLogin: ReturnType<typeof createLineLoginService>;
}
