# OpenVibe Skills: one image for the web server and the worker host (docs/deploy.md).
#
#   docker build -t openvibe .
#   docker run --env-file prod.env openvibe migrate      # once per release, before the rest
#   docker run --env-file prod.env -p 3000:3000 openvibe # web (next start), any number of copies
#   docker run --env-file prod.env openvibe workers      # worker host, any number of copies
#
# Built from package-lock.json with `npm ci`. Nothing is fetched except packages from the npm
# registry and Debian's apt: Prisma's native engines are never downloaded (package.json
# allowScripts; migrations run through the WebAssembly engine), and the build needs no database.
ARG NODE_IMAGE=node:20-bookworm-slim

# --- dependencies: the exact tree of the lock file ------------------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 \
    npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false
# npm 11 runs only the install scripts package.json's allowScripts approves; older npm runs them all.
RUN npm install --global npm@11.19.1
COPY package.json package-lock.json prisma.config.ts ./
# The Link and the CLIs are workspaces of their own; npm ci needs their manifests, not their code.
COPY link/package.json ./link/
COPY cli/package.json ./cli/
COPY prisma ./prisma
COPY scripts/no-schema-engine.sh scripts/postinstall.mjs ./scripts/
# Its postinstall generates the Prisma client into lib/db/generated.
RUN npm ci

# --- build: next build ----------------------------------------------------------------------------
FROM deps AS build
COPY . .
# next.config.mjs validates the environment at build time; these only have the right shape (the
# build connects to nothing). The real values are given when the container runs.
RUN DATABASE_URL=postgresql://build@127.0.0.1:5432/build \
    REDIS_URL=redis://127.0.0.1:6379/0 \
    AUTH_SECRET=build-time-placeholder-that-signs-nothing \
    NODE_ENV=production \
    node node_modules/next/dist/bin/next build \
 && node scripts/build-server.mjs \
 && rm -rf .next/cache \
 && npm prune --omit=dev --no-audit --no-fund

# --- runtime ----------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# tini forwards signals to the server (which drains on SIGTERM) and reaps children;
# postgresql-client is pg_dump/pg_restore for `backup` and `restore` (Debian 12: version 15, which
# dumps servers up to 15: set PG_BIN_DIR to newer tools for a newer server).
RUN apt-get update \
 && apt-get install --yes --no-install-recommends tini postgresql-client \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    DATA_DIR=/data
# The app's files stay owned by root (read-only to the server); only DATA_DIR and Next's cache
# folder are writable. Dev dependencies are pruned: the worker host and the operators' commands
# run compiled (dist/server, scripts/build-server.mjs), migrations through Prisma's WebAssembly
# schema engine (a dependency).
COPY --from=build /app /app
RUN mkdir -p /data /app/.next/cache && chown node:node /data /app/.next/cache
USER node
VOLUME ["/data"]
EXPOSE 3000
ENTRYPOINT ["/usr/bin/tini", "--", "/app/scripts/docker-entrypoint.sh"]
CMD ["web"]
