# syntax=docker/dockerfile:1
# Vetrina: one instance per container. Configuration comes from the environment (README,
# docs/deploy.md). tools/check-dockerfile-steps.sh replays these steps without Docker in CI,
# so keep RUN steps relative to WORKDIR and free of the image's users.

# Build: every dependency, then the TypeScript compile. Install scripts are skipped: tsc needs
# none, and the runtime stage installs its own production dependencies. Neither stage
# installs the npm workspaces (--workspaces=false): the typed client (clients/typescript)
# is for storefronts, and the server neither builds nor runs it.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --workspaces=false --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# The embedded profile's data directory, created here so the runtime can copy it owned by `node`.
RUN npm run build && mkdir -p data

# Runtime: production dependencies, the compiled code and what it reads at run time (the
# demo catalog seeds an empty store). Nothing under docs/ is read at run time. The embedded
# store's driver (libsql) arrives as a prebuilt Node-API binary: nothing is compiled here.
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --workspaces=false --omit=dev --no-audit --no-fund
COPY --from=build /app/dist ./dist
COPY catalog ./catalog
COPY --from=build --chown=node:node /app/data ./data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/server.js"]
