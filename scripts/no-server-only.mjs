// For scripts that load route handlers outside Next.js (benchmarks): `server-only` throws unless
// the react-server condition is set, and that condition breaks next-auth's client imports. This
// resolves `server-only` to an empty module instead, exactly as the test runner's alias does.
import { register } from "node:module";

register(
  `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier === "server-only") return { url: "data:text/javascript,export{}", shortCircuit: true };
  return next(specifier, context);
}`)}`,
  import.meta.url,
);
