# syntax=docker/dockerfile:1
# One front-end (the shell or a remote) as static files behind nginx on port 8080. Build from the
# repository root:
#   docker build -f docker/frontend.Dockerfile --build-arg APP=shell \
#     -t registry.example.com/shop/shell:0.1.0 .
# APP is the front-end's folder (the package is @shop/<APP>). SPA_FALLBACK=true answers unknown
# extension-less paths with index.html (client-side routes); the default "auto" turns it on for the
# shell only.
ARG NODE_IMAGE=node:24-slim
ARG NGINX_IMAGE=nginx:1.27-alpine

# npm install (not npm ci: see tools/bootstrap.mjs) needs every workspace's package.json (the lockfile lists them all) and nothing else. Keeping
# only those here means a source change leaves the install layer below cached.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /repo
COPY . .
RUN find . -type f ! -name package.json ! -name package-lock.json ! -name .npmrc -delete \
 && find . -depth -type d -empty -delete

FROM ${NODE_IMAGE} AS build
ARG APP
RUN test -n "${APP}" || { echo 'Pass --build-arg APP=shell|mf-catalog|mf-checkout|mf-admin' >&2; exit 1; }
WORKDIR /repo
ENV CI=true
COPY --from=manifests /repo ./
RUN --mount=type=cache,target=/root/.npm npm install --no-audit --no-fund --no-save
COPY . .
# webpack compiles the workspace libraries from their TypeScript source, so none needs building first.
RUN npm run build --workspace="@shop/${APP}" \
 && test -f "${APP}/dist/mf-manifest.json"

FROM ${NGINX_IMAGE} AS runtime
ARG APP
ARG SPA_FALLBACK=auto
LABEL org.opencontainers.image.title="shop-${APP}" \
      org.opencontainers.image.description="Storefront front-end ${APP} (static files)"
RUN rm -rf /usr/share/nginx/html/* /etc/nginx/conf.d/*
COPY --from=build /repo/${APP}/dist/ /usr/share/nginx/html/
COPY docker/nginx/nginx.conf /etc/nginx/nginx.conf
COPY docker/nginx/frontend.conf.template /tmp/frontend.conf.template
# The server block is rendered now, not at start-up: the root filesystem is read-only at run time.
RUN set -eu; \
    spa="${SPA_FALLBACK}"; \
    if [ "${spa}" = auto ]; then if [ "${APP}" = shell ]; then spa=true; else spa=false; fi; fi; \
    if [ "${spa}" = true ]; then TRY_FILES='$uri /index.html'; else TRY_FILES='$uri =404'; fi; \
    if [ -f /usr/share/nginx/html/index.html ]; then READY_FILE=index.html; else READY_FILE=mf-manifest.json; fi; \
    export TRY_FILES READY_FILE; \
    envsubst '${TRY_FILES} ${READY_FILE}' < /tmp/frontend.conf.template > /etc/nginx/conf.d/frontend.conf; \
    nginx -t; \
    rm -rf /tmp/*
# The image's nginx user, by number so that Kubernetes can verify runAsNonRoot.
USER 101:101
EXPOSE 8080
