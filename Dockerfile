# tankserver in a container: a static binary on a distroless base, run as a non-root user.
#
#   docker build -t tanknet/tankserver .
#   docker run --rm -p 7777:7777/udp tanknet/tankserver
#   docker run --rm -p 7777:7777/udp -p 8080:8080/tcp -p 8080:8080/udp tanknet/tankserver \
#       -addr :7777 -web :8080 -web-dir /web -web-public-ip HOST_IP   # browsers too: http://HOST:8080/
#
# deploy/agones/fleet.yaml runs this image in an Agones fleet; docs/DEPLOY.md says how.

# Build stage: the Go toolchain, the module's dependencies first (cached while go.mod and
# go.sum stay the same), then tankserver, and the browser client's page. CGO_ENABLED=0 makes it static: it needs no
# C library in the final image (tankserver never imports Ebitengine, the one cgo user).
FROM golang:1.24-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/tankserver ./cmd/tankserver
# The browser client's page (make web): tankserver -web serves it from /web.
RUN ./scripts/build-web.sh /out/web

# Final stage: nothing but the binary and the page (and CA certificates and time zones, from
# distroless).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/web /web
COPY --from=build /out/tankserver /tankserver
# 65532 is distroless' "nonroot" user; a number lets Kubernetes check runAsNonRoot.
USER 65532:65532
# KCP over UDP; with -web :8080, the page and offers on 8080/tcp and WebRTC on 8080/udp.
EXPOSE 7777/udp 8080/tcp 8080/udp
ENTRYPOINT ["/tankserver"]
CMD ["-addr", ":7777", "-web-dir", "/web"]
