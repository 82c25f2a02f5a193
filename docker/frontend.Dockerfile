# syntax=docker/dockerfile:1
# One front-end (the shell or a remote) as static files behind nginx on port 8080. Build from the
# repository root:
#   docker build -f docker/frontend.Dockerfile --build-arg APP=mf-catalog \
#     --build-arg PREVIOUS_IMAGE=registry.example.com/shop/mf-catalog:0.1.0 \
#     -t registry.example.com/shop/mf-catalog:0.2.0 .
# APP is the front-end's folder (the package is @shop/<APP>); the image serves its build under
# /<version>/ (version = APP's package.json version). PREVIOUS_IMAGE, the image now in production, hands
# over the versions it serves, so old and new pods can answer for each other during a rollout; leave it
# out for the first image. KEEP_VERSIONS caps how many versions the image carries (the newest).
# See docs/decisions/0011-versioned-front-ends.md.
ARG NODE_IMAGE=node:24-slim
ARG NGINX_IMAGE=nginx:1.27-alpine
ARG PREVIOUS_IMAGE=""

# npm ci needs every workspace's package.json (the lockfile lists them all) and nothing else. Keeping
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
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY . .
# webpack compiles the workspace libraries from their TypeScript source, so none needs building first.
RUN npm run build --workspace="@shop/${APP}" \
 && test -f "${APP}/dist/mf-manifest.json"

# The image now in production, or, for the first image, the stock nginx root (which holds no version).
FROM ${PREVIOUS_IMAGE:-nginx:1.27-alpine} AS previous

# The web root: this build under its version, beside the versions the previous image carried.
FROM ${NODE_IMAGE} AS site
ARG APP
ARG KEEP_VERSIONS=10
SHELL ["/bin/sh", "-eu", "-c"]
COPY --from=previous /usr/share/nginx/html/ /previous/
COPY --from=build /repo/${APP}/package.json /tmp/package.json
COPY --from=build /repo/${APP}/dist/ /tmp/dist/
COPY docker/nginx/carry-versions.sh /usr/local/bin/carry-versions
COPY libs/static-server/src/page-policy.mjs docker/nginx/page-policy-map.mjs /usr/local/lib/page-policy/
# The shell's remotes.json and site.json are also copied to the root: the environment's ConfigMap is
# mounted over them there, and these defaults answer until it is.
RUN version="$(node -p "require('/tmp/package.json').version")"; \
    mkdir -p /site; \
    mv /tmp/dist "/site/${version}"; \
    carry-versions /site "${version}" /previous "${KEEP_VERSIONS}"; \
    printf '%s' "${version}" > /version; \
    if [ "${APP}" = shell ]; then cp "/site/${version}/remotes.json" "/site/${version}/site.json" /site/; fi; \
    if [ "${APP}" = shell ]; then \
      node /usr/local/lib/page-policy/page-policy-map.mjs /site > /page-policy-map.conf; \
    else \
      echo '# A remote serves no page: no page policy.' > /page-policy-map.conf; \
    fi

FROM ${NGINX_IMAGE} AS runtime
ARG APP
# The shell's page server (docs/rendering.md), asked for every page: the environment's PAGES_URL (compose's
# name by default; Kubernetes sets the full name). The image's entry point renders
# /etc/nginx/templates/shell-pages.conf.template into /tmp at start, with the container's nameservers
# (NGINX_LOCAL_RESOLVERS). Remotes have no template, so none of this applies to them.
ENV PAGES_URL=http://shell-pages:4100 \
    NGINX_ENTRYPOINT_LOCAL_RESOLVERS=1 \
    NGINX_ENVSUBST_OUTPUT_DIR=/tmp
LABEL org.opencontainers.image.title="shop-${APP}" \
      org.opencontainers.image.description="Storefront front-end ${APP} (static files, one folder per version)"
SHELL ["/bin/sh", "-eu", "-c"]
RUN rm -rf /usr/share/nginx/html/* /etc/nginx/conf.d/*
COPY --from=site /site/ /usr/share/nginx/html/
COPY --from=site /version /tmp/version
COPY docker/nginx/nginx.conf /etc/nginx/nginx.conf
COPY docker/nginx/frontend-common.conf docker/nginx/security-headers.conf docker/nginx/page-policy.conf \
     docker/nginx/page-server.conf /etc/nginx/snippets/
# Each carried shell version's page policy, with the hashes of that version's inline start script.
COPY --from=site /page-policy-map.conf /etc/nginx/conf.d/page-policy-map.conf
COPY docker/nginx/shell.conf.template docker/nginx/remote.conf.template docker/nginx/shell-pages.conf.template /tmp/
# The server block is rendered now, not at start-up: the root filesystem is read-only at run time.
# The shell's release is a file of its own: the environment's ConfigMap shell-release is mounted over it.
# The shell's page server settings are rendered at start (into /tmp); here once, for nginx -t only.
RUN APP_VERSION="$(cat /tmp/version)"; export APP_VERSION; \
    if [ "${APP}" = shell ]; then \
      template=shell; \
      mkdir -p /etc/nginx/shell-release; \
      printf "set \$shell_release \"%s\";\n" "${APP_VERSION}" > /etc/nginx/shell-release/shell-release.conf; \
      mkdir -p /etc/nginx/templates; \
      mv /tmp/shell-pages.conf.template /etc/nginx/templates/; \
      NGINX_LOCAL_RESOLVERS=127.0.0.11 envsubst "\${PAGES_URL} \${NGINX_LOCAL_RESOLVERS}" \
        < /etc/nginx/templates/shell-pages.conf.template > /tmp/shell-pages.conf; \
    else \
      template=remote; \
    fi; \
    envsubst "\${APP_VERSION}" < "/tmp/${template}.conf.template" > /etc/nginx/conf.d/frontend.conf; \
    nginx -t; \
    rm -rf /tmp/*
# Every image of the shop runs as 10001:10001, by number so that Kubernetes can verify runAsNonRoot.
RUN addgroup -S -g 10001 shop && adduser -S -D -H -u 10001 -G shop shop
USER 10001:10001
EXPOSE 8080
