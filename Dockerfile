# One Hub: console + gateway in one image.
#   docker build -t one-hub .
#   docker run -d -p 3000:3000 -v one-hub-data:/data one-hub
# BASE is the runtime image (Node.js ≥ 20.19 on Debian); BUILD_BASE also needs npm, and
# python3, make and g++ wherever better-sqlite3 has no prebuilt binary to download.
ARG BASE=node:24-bookworm-slim
ARG BUILD_BASE=node:24-bookworm

# 1. Build the console (Vite) and bundle the server (esbuild). No native module is needed here.
FROM ${BUILD_BASE} AS build
WORKDIR /src
COPY package.json package-lock.json tsconfig.base.json ./
COPY packages/contract/package.json packages/contract/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund
COPY scripts scripts
COPY packages packages
COPY apps apps
RUN npm run build

# 2. The server's production dependencies only (no console libraries, no test tools).
FROM ${BUILD_BASE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --workspace apps/server --no-audit --no-fund \
  && rm -rf packages apps/web node_modules/@one-hub

# 3. Runtime: Node, the bundles, the built console and production node_modules; a non-root user.
FROM ${BASE}
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data \
    SQLITE_PATH=/data/one-hub.db
COPY --from=deps /app ./
COPY --from=build /src/apps/server/dist apps/server/dist
COPY --from=build /src/apps/web/dist apps/web/dist
RUN mkdir -p /data && chown 1000:1000 /data
USER 1000:1000
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/status').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The flags of apps/server/node-flags.json (test/ops/container.test.ts checks they agree).
CMD ["node", "--enable-source-maps", "apps/server/dist/main.mjs"]
