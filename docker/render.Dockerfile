# syntax=docker/dockerfile:1
# One front-end's server-rendering process (docs/rendering.md, docs/decisions/0020-server-rendering.md):
#   APP=mf-catalog  the catalog team's render service, mf-catalog-render (port 4101)
#   APP=shell       the shell team's page server, shell-pages (port 4100), with the shell build's index.html
# Build from the repository root, from the same commit as the front-end's own image:
#   docker build -f docker/render.Dockerfile --build-arg APP=mf-catalog \
#     -t registry.example.com/shop/mf-catalog-render:0.2.0 .
#   docker build -f docker/render.Dockerfile --build-arg APP=shell \
#     -t registry.example.com/shop/shell-pages:0.2.0 .
# The image's version is the front-end's (APP's package.json version): the page server renders through a
# render service only when its version is the one remotes.json names, and a page server's index.html
# loads its own shell version's files. The server is one self-contained webpack bundle (<APP>/dist-server/,
# built by the front-end's own build): it needs node and no node_modules.
# The Node release is the project's own (root package.json, devDependencies.node), as in service.Dockerfile.
ARG NODE_IMAGE=node:24.21.0-slim

# npm ci needs every workspace's package.json (the lockfile lists them all) and nothing else. Keeping
# only those here means a source change leaves the install layer below cached.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /repo
COPY . .
RUN find . -type f ! -name package.json ! -name package-lock.json ! -name .npmrc -delete \
 && find . -depth -type d -empty -delete

FROM ${NODE_IMAGE} AS build
ARG APP
RUN case "${APP}" in mf-catalog | shell) ;; *) echo 'Pass --build-arg APP=mf-catalog|shell' >&2; exit 1 ;; esac
WORKDIR /repo
ENV CI=true
COPY --from=manifests /repo ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY . .
# The front-end's build writes the browser build (dist/) and the server bundle (dist-server/); webpack
# compiles the workspace libraries from their TypeScript source, so none needs building first.
RUN npm run build --workspace="@shop/${APP}" \
 && test -f "${APP}/dist-server/main.js" \
 && test -f "${APP}/dist/index.html"
# /out is what runs: the bundle, and for the page server the shell build's page (the same build the
# shell's nginx image serves under its version), read per request from SHELL_DIR.
RUN mkdir -p /out/server \
 && cp -a "${APP}/dist-server/." /out/server/ \
 && if [ "${APP}" = shell ]; then mkdir -p /out/shell && cp "${APP}/dist/index.html" /out/shell/; fi

FROM ${NODE_IMAGE} AS runtime
ARG APP
ARG VERSION=unversioned
LABEL org.opencontainers.image.title="shop-${APP}-server-rendering" \
      org.opencontainers.image.description="Storefront ${APP}: server rendering (render service or page server)" \
      org.opencontainers.image.version="${VERSION}"
# The server needs node and nothing else: npm, npx, corepack (and yarn, where the base has it) go, so a
# process that breaks in cannot fetch and run packages with them. It runs as user and group 10001, above
# any account of the host; the k8s pods ask for the same ids (runAsUser/runAsGroup).
RUN rm -rf /usr/local/lib/node_modules /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack \
      /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-* \
 && groupadd --system --gid 10001 shop \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin shop
# Owned by root and read-only to the process: the container never changes its own code or page.
COPY --from=build /out/ /usr/share/shop/
# SHELL_DIR is read by the page server only (shell/src/server/main.ts); PORT, API_URL, REMOTES_URL,
# RENDER_CATALOG_URL and PUBLIC_URL come from the environment (k8s/base/<unit>/kustomization.yaml, compose.yaml).
ENV NODE_ENV=production SHELL_DIR=/usr/share/shop/shell
WORKDIR /usr/share/shop/server
# By number so that Kubernetes can verify runAsNonRoot.
USER 10001:10001
# The page server's default port, then the render service's.
EXPOSE 4100
EXPOSE 4101
# The base image's entrypoint script would run `node` through a shell for nothing: start it directly.
ENTRYPOINT []
# Both servers close on SIGTERM themselves, so node can be PID 1 without an init.
CMD ["node", "--enable-source-maps", "main.js"]
