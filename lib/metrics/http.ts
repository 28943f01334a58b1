// The route wrapper's timing: one histogram observation per request, labelled by method, route
// pattern and status. Never throws, so a metrics problem can never change a response.
import { metrics } from "./registry";
import { routeLabel } from "./route-label";

type RouteContext = { params: Promise<Record<string, string | string[] | undefined> | undefined> };

export function withRequestMetrics<C extends RouteContext>(
  handler: (req: Request, context?: C) => Promise<Response>,
): (req: Request, context?: C) => Promise<Response> {
  return async (req, context) => {
    const started = performance.now();
    let status = 500;
    try {
      const response = await handler(req, context);
      status = response.status;
      return response;
    } finally {
      await observe(req, context, status, (performance.now() - started) / 1000);
    }
  };
}

async function observe(req: Request, context: RouteContext | undefined, status: number, seconds: number) {
  try {
    const params = (context ? await context.params : undefined) ?? {};
    const route = routeLabel(new URL(req.url).pathname, params);
    metrics().httpDuration.observe({ method: req.method, route, status: String(status) }, seconds);
  } catch {
    // A request whose params cannot be read is not worth failing the response for.
  }
}
