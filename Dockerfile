# Sessionboxer's control plane with what its boxes need (docs/OPERATIONS.md, "The image").
# docker-compose.yml runs it with the privileges bubblewrap needs; tools/test/image.spec.ts
# checks this file against the box driver's list of host programs (host-commands.ts).
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Also installs the agent CLIs boxes run: node_modules/.bin/claude and OpenCode's
# opencode-linux-x64 (an optional dependency: build on linux/amd64).
RUN npm ci --no-audit --no-fund
COPY . .
# dist/: the control plane, the box daemon and its MCP servers, the web UI and the
# operators' CLI (dist/tools/cli/main.js: backup, restore, verify, replay, …).
# Boxes run as host uid 524288 and read the project as "other" does (the driver checks).
RUN npm run build && npm prune --omit=dev && chmod -R o+rX node_modules dist

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# Boxes see this image's /usr read-only: what is not installed here, a box does not have.
#   bubblewrap util-linux  isolation: bwrap, and nsenter, setpriv, unshare
#   xvfb xdotool x11-apps x11-utils xterm  the desktop: display, pointer and keys, xwd
#                          screenshots, xprop/xwininfo, terminal windows
#   ffmpeg                 recordings (ffmpeg, ffprobe)
#   espeak-ng              narration
#   chromium               the browser on the desktop
#   x11vnc                 the live desktop view (sessions' Desktop pane, sandboxes' watch)
#   dbus-x11 at-spi2-core python3-gi python3-pyatspi gir1.2-gtk-3.0
#                          the accessibility tree of other apps than Chromium (AT-SPI)
#   fonts-*                text on the desktop and in the browser
#   git ca-certificates    repositories (clones on the host, diffs and pushes in the box)
RUN apt-get update \
  && apt-get install -y --no-install-recommends \
    bubblewrap util-linux \
    xvfb xdotool x11-apps x11-utils xterm \
    ffmpeg \
    espeak-ng \
    chromium \
    x11vnc \
    dbus-x11 at-spi2-core python3-gi python3-pyatspi gir1.2-gtk-3.0 \
    fonts-dejavu-core fonts-liberation fonts-noto-color-emoji \
    git ca-certificates \
  && rm -rf /var/lib/apt/lists/*
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# The agents' guide: the box's `docs` tool reads it (mounted at BOX_PATHS.guide).
COPY docs/GUIDE.md ./docs/GUIDE.md
COPY tools/docker/entrypoint.sh /usr/local/bin/sessionboxer-entrypoint
RUN chmod 0755 /usr/local/bin/sessionboxer-entrypoint
VOLUME /var/lib/sessionboxer
ENV SESSIONBOXER_DATA_DIR=/var/lib/sessionboxer
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/sessionboxer-entrypoint"]
CMD ["node", "dist/apps/control-plane/src/main.js"]
