import type { AppContext } from '../../context';
import type { ZodApp } from '../../zod-app';
import { registerCheckoutRoutes } from './checkouts.routes';
import { registerClosingAndSalesRoutes } from './closings.routes';
import { registerProductRoutes } from './products.routes';

/** The register (会計, docs/architecture.md#register-会計): products, checkouts, corrections, closings, takings. */
export function registerRegisterRoutes(app: ZodApp, ctx: AppContext) {
  registerProductRoutes(app, ctx);
  registerCheckoutRoutes(app, ctx);
  registerClosingAndSalesRoutes(app, ctx);
}
