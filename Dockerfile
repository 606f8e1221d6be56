# The web image: the site served by Daphne (deploy/web.sh). docker-compose.yml runs it
# as its `web` replicas and its one-shot `migrate`; see docs/deploy.md.
# The solver's hot modules, compiled to C by mypyc (solitaire/tools/compile.py) in a
# stage of their own, so the compiler and mypy stay out of the served image.
FROM python:3.11-slim AS compiled
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /build
COPY requirements.txt requirements-dev.txt ./
# mypy and what it needs, at the pins of requirements-dev.txt (typing_extensions is a
# runtime pin).
RUN pip install --no-cache-dir $(grep -hE '^(mypy|mypy_extensions|librt|pathspec|ast_serialize|setuptools|typing_extensions)==' requirements-dev.txt requirements.txt)
COPY solitaire ./solitaire
RUN python -m solitaire.tools.compile --work /tmp/compiled-build

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# The pinned runtime requirements only (no tests or tools), first, so code changes do
# not reinstall them.
COPY requirements.txt ./
RUN pip install -r requirements.txt

COPY . .
COPY --from=compiled /build/solitaire/*.so /build/solitaire/compiled.stamp ./solitaire/

# Hashed, compressed static files for WhiteNoise, made once here rather than at every
# start. collectstatic needs settings, not secrets: throwaway random ones (weak secrets
# are refused with DEBUG off), gone with this step.
ENV STATIC_ROOT=/app/staticfiles
RUN DEBUG=0 SECRET_KEY="$(python -c 'import secrets; print(secrets.token_hex(32))')" DEAL_SECRET="$(python -c 'import secrets; print(secrets.token_hex(32))')" deploy/collectstatic.sh

# Run as an unprivileged user; var/ is where a SQLite-mode container would keep its files.
RUN useradd --system --home-dir /app --shell /usr/sbin/nologin patience \
    && mkdir -p /app/var \
    && chown patience /app/var
USER patience

ENV DEBUG=0 \
    VAR_DIR=/app/var \
    BIND=0.0.0.0 \
    PORT=8000
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=10s --start-period=20s --retries=3 \
    CMD ["python", "deploy/healthcheck.py"]
CMD ["deploy/web.sh"]
