# syntax=docker/dockerfile:1
# Tradewind in one image: the compiled server and its command-line tools, the built web app and
# operator console, and the production dependencies they load from node_modules. Every role runs
# from it: ROLE=api, ROLE=worker and the one-shot `node apps/server/dist/migrate.js`
# (docs/operations.md#containers; deploy/compose.yaml runs a small cluster of it).

# Node 20 is the project's runtime (engines >= 20.19, decision 0011); 20.20.2 is its last
# release, on Debian bookworm as on the project's machines.
ARG NODE_IMAGE=node:20.20.2-bookworm-slim

FROM ${NODE_IMAGE} AS base
WORKDIR /app
# The lockfile is written by npm 11, the project machines' npm; Node 20 brings npm 10, which
# was seen failing to install Vite 8 there.
RUN npm install --global npm@11.19.1 && npm cache clean --force
# The manifests alone first, so that a change to the sources reuses the installed packages.
COPY package.json package-lock.json .npmrc ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY apps/admin/package.json apps/admin/
COPY packages/contract/package.json packages/contract/
COPY packages/http-client/package.json packages/http-client/

FROM base AS build
RUN npm ci --no-audit --no-fund
COPY . .
# The web app with its prerendered pages and server renderer, the console, and the server and
# its CLIs compiled to apps/server/dist (docs/operations.md#production-build).
RUN npm run build

# The compiled server bundles only our own TypeScript and loads every package from node_modules
# as installed (apps/server/scripts/build.ts): sharp's and argon2's prebuilt native modules,
# PGlite's wasm and data files, the AWS SDK. All of them are production dependencies.
FROM base AS deps
RUN npm ci --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    NODE_OPTIONS=--enable-source-maps
WORKDIR /app
# node_modules and the workspaces' package.json files: apps/server/package.json's
# "type": "module" is what makes Node load dist/*.js as ES modules.
COPY --from=deps /app ./
COPY --from=build /app/apps/server/dist apps/server/dist
# Read at run time beside the bundle, through each module's own source address: the migrations
# (platform/db.ts) and the shared messages (platform/i18n.ts).
COPY --from=build /app/apps/server/drizzle apps/server/drizzle
COPY --from=build /app/packages/contract/src/i18n packages/contract/src/i18n
# WEB_DIST and ADMIN_DIST by default; Home is rendered per request by build-ssr/prerender.js.
COPY --from=build /app/apps/web/dist apps/web/dist
COPY --from=build /app/apps/web/build-ssr apps/web/build-ssr
COPY --from=build /app/apps/admin/dist apps/admin/dist
# DATA_DIR (./data): on PostgreSQL with S3_* it holds only the admin channel's socket, which
# `node apps/server/dist/ops.js` in the same container talks to.
RUN mkdir data && chown node:node data
USER node
# PORT (web app, API, WebSocket) and WORKER_PORT (a worker's health, readiness and metrics).
EXPOSE 3000 3001
# Liveness on whichever port this role serves; no curl in the slim image, so Node's fetch.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
    CMD ["node", "-e", "const worker = process.env.ROLE === 'worker'; const port = (worker ? process.env.WORKER_PORT : process.env.PORT) || (worker ? 3001 : 3000); fetch('http://127.0.0.1:' + port + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1));"]
# Node itself, not `npm start`, so that SIGTERM reaches the server. Run it under an init process
# (`docker run --init`, compose's `init: true`: the slim image has no tini of its own), which as
# PID 1 passes the signals on and reaps orphaned processes.
CMD ["node", "apps/server/dist/main.js"]
