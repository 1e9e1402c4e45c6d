"""A llama.cpp server from the prebuilt ``xllamacpp`` wheel (MIT; no build step), speaking the
OpenAI wire format on 127.0.0.1, for ``make test-llama``:

    python tests/xllama_server.py MODEL.gguf PORT

It serves until it is terminated; tests/answer/test_llama.py starts and stops it.
"""

from __future__ import annotations

import sys
import time


def main() -> None:
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = sys.argv[1]
    params.n_ctx = 4096
    params.hostnames = ["127.0.0.1"]
    params.port = int(sys.argv[2])
    params.cpuparams.n_threads = 2
    server = xllamacpp.Server(params)
    print(f"listening on {server.listening_address}", flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
