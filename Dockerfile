# tankserver in a container: a static binary on a distroless base, run as a non-root user.
#
#   docker build -t tanknet/tankserver .
#   docker run --rm -p 7777:7777/udp tanknet/tankserver
#
# deploy/agones/fleet.yaml runs this image in an Agones fleet; docs/DEPLOY.md says how.

# Build stage: the Go toolchain, the module's dependencies first (cached while go.mod and
# go.sum stay the same), then tankserver alone. CGO_ENABLED=0 makes it static: it needs no
# C library in the final image (tankserver never imports Ebitengine, the one cgo user).
FROM golang:1.24-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/tankserver ./cmd/tankserver

# Final stage: nothing but the binary (and CA certificates and time zones, from distroless).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/tankserver /tankserver
# 65532 is distroless' "nonroot" user; a number lets Kubernetes check runAsNonRoot.
USER 65532:65532
EXPOSE 7777/udp
ENTRYPOINT ["/tankserver"]
CMD ["-addr", ":7777"]
