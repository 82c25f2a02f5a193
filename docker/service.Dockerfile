# syntax=docker/dockerfile:1
# One NestJS service of the monorepo and the workspace libraries it runs with. Build from the repository root:
#   docker build -f docker/service.Dockerfile --build-arg SERVICE=products \
#     -t registry.example.com/shop/products:0.1.0 .
# SERVICE is the folder under services/ (the package is @shop/<SERVICE>); VERSION (its package.json
# version) only labels the image. `npx nx run @shop/<SERVICE>:image` passes both (tools/ship/image.mjs).
# The Node release is the project's own (root package.json, devDependencies.node; a test keeps them equal).
ARG NODE_IMAGE=node:24.21.0-slim

# npm ci needs every workspace's package.json (the lockfile lists them all) and nothing else. Keeping
# only those here means a source change leaves the install layer below cached.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /repo
COPY . .
RUN find . -type f ! -name package.json ! -name package-lock.json ! -name .npmrc -delete \
 && find . -depth -type d -empty -delete

FROM ${NODE_IMAGE} AS build
ARG SERVICE
RUN test -n "${SERVICE}" || { echo 'Pass --build-arg SERVICE=<folder under services/>' >&2; exit 1; }
WORKDIR /repo
ENV CI=true NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false
COPY --from=manifests /repo ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY . .
# Nx builds the libraries the service depends on first: their dist/ is what runs in production.
RUN test -d "services/${SERVICE}" || { echo "No such service: services/${SERVICE}" >&2; exit 1; } \
 && npx nx run "@shop/${SERVICE}:build" --outputStyle=static
# Reinstall with the production dependencies of this one service (and of the libraries it links) only,
# at the versions of the lockfile. Workspaces' devDependencies are dropped from their package.json first:
# with them, npm still links a dev-only workspace such as @shop/testing and installs its dependencies
# (testcontainers, ...) despite --omit=dev. That edit is why this step is `npm install --no-save`, not `npm ci`.
RUN --mount=type=cache,target=/root/.npm \
    rm -rf node_modules ./*/node_modules libs/*/node_modules services/*/node_modules \
 && npm pkg delete devDependencies --workspaces \
 && npm install --omit=dev --workspace="@shop/${SERVICE}" --include-workspace-root=false \
      --no-save --no-audit --no-fund \
 && test ! -e node_modules/@shop/testing
# /out is the runtime tree: node_modules, whose @shop/* entries are relative links, plus package.json
# and dist/ of each linked workspace (the service itself among them) at the same relative paths.
RUN mkdir -p /out \
 && cp -a node_modules /out/ \
 && for link in node_modules/@shop/*; do \
      dir="$(readlink -f "${link}")"; rel="${dir#/repo/}"; \
      mkdir -p "/out/${rel}"; \
      cp -a "${dir}/package.json" "${dir}/dist" "/out/${rel}/"; \
      if [ -d "${dir}/node_modules" ]; then cp -a "${dir}/node_modules" "/out/${rel}/"; fi; \
    done \
 && test -f "/out/services/${SERVICE}/dist/main.js"

FROM ${NODE_IMAGE} AS runtime
ARG SERVICE
ARG VERSION=unversioned
LABEL org.opencontainers.image.title="shop-${SERVICE}" \
      org.opencontainers.image.description="Storefront ${SERVICE} service" \
      org.opencontainers.image.version="${VERSION}"
# The service needs node and nothing else: npm, npx, corepack (and yarn, where the base has it) go, so a
# process that breaks in cannot fetch and run packages with them. The service runs as user and group
# 10001, above any account of the host; the k8s pods ask for the same ids (runAsUser/runAsGroup).
RUN rm -rf /usr/local/lib/node_modules /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack \
      /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-* \
 && groupadd --system --gid 10001 shop \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin shop
ENV NODE_ENV=production
WORKDIR /app
# Owned by root and read-only to the process: the container never changes its own code.
COPY --from=build /out ./
WORKDIR /app/services/${SERVICE}
# By number so that Kubernetes can verify runAsNonRoot.
USER 10001:10001
# The base image's entrypoint script would run `node` through a shell for nothing: start it directly.
ENTRYPOINT []
# Nest handles SIGTERM itself (enableShutdownHooks), so node can be PID 1 without an init.
CMD ["node", "--enable-source-maps", "dist/main.js"]
