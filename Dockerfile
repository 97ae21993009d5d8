# The CRM service: production dependencies only, a non-root user, a health check on /healthz.
# Build: docker build -t crm-service .   Run: see compose.yaml and docs/deploying.md.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# No lifecycle scripts: nothing needs building, and dev tools are not installed.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    CRM_DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY . .
# npm ci's prepare step, skipped above: the compiled JavaScript `crm` runs instead of the TypeScript sources
# (esbuild, a production dependency), then the PGlite clusters a fresh data folder starts from (initialised,
# and migrated for the default plugins).
RUN node bin/build.mjs && node bin/pglite-template.mjs && mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "bin/crm.mjs", "serve"]
