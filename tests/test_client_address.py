"""Rate limits count per reader: behind a trusted reverse proxy by the address it forwards,
from anyone else by the connection's own address, whatever X-Forwarded-For says."""
from __future__ import annotations

import pytest

from server.api.client_address import PEER, ClientAddress
from server.settings import SettingsError, load_settings

PROXY = "10.0.0.7"


@pytest.fixture
def client(chat_app):
    return chat_app(trusted_proxies=("10.0.0.0/8", "::1"), rate_limit="2 per minute").test_client()


def _new_session(client, peer: str, forwarded_for: str | None = None) -> int:
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
    return client.post("/sessions", json={}, headers=headers, environ_overrides={"REMOTE_ADDR": peer}).status_code


def test_two_readers_behind_one_trusted_proxy_have_their_own_buckets(client):
    assert [_new_session(client, PROXY, "203.0.113.5") for _ in range(3)] == [201, 201, 429]
    assert [_new_session(client, PROXY, "203.0.113.6") for _ in range(2)] == [201, 201]
    # the proxy's own requests (no header) are a third reader
    assert _new_session(client, PROXY) == 201


def test_forwarded_for_from_an_untrusted_peer_is_ignored(client):
    spoofed = [_new_session(client, "198.51.100.9", f"203.0.113.{n}") for n in range(3)]
    assert spoofed == [201, 201, 429]  # one bucket: the peer's


def test_a_reader_cannot_pick_an_address_through_a_trusted_proxy(client):
    # the proxy appends what it saw; what the reader wrote further left is not believed
    assert [_new_session(client, PROXY, f"192.0.2.{n}, 203.0.113.5") for n in range(3)] == [201, 201, 429]


def test_client_of_walks_left_only_through_trusted_hops():
    middleware = ClientAddress(lambda environ, start: [], ["10.0.0.0/8", "::1"])
    assert middleware.client_of("10.0.0.7", "203.0.113.5") == "203.0.113.5"
    assert middleware.client_of("10.0.0.7", "203.0.113.5, 10.0.0.2") == "203.0.113.5"  # two proxies
    assert middleware.client_of("10.0.0.7", "1.2.3.4, 203.0.113.5") == "203.0.113.5"
    assert middleware.client_of("10.0.0.7", "not-an-address") == "10.0.0.7"
    assert middleware.client_of("::1", "2001:db8::5") == "2001:db8::5"
    assert middleware.client_of("198.51.100.9", "203.0.113.5") == "198.51.100.9"


def test_what_the_app_sees(tmp_path):
    seen = {}

    def app(environ, start_response):
        seen.update(environ)
        return []

    middleware = ClientAddress(app, ["10.0.0.0/8"])
    middleware({"REMOTE_ADDR": "10.0.0.7", "HTTP_X_FORWARDED_FOR": "203.0.113.5", "HTTP_X_FORWARDED_PROTO": "https",
                "wsgi.url_scheme": "http"}, None)
    assert (seen["REMOTE_ADDR"], seen[PEER], seen["wsgi.url_scheme"]) == ("203.0.113.5", "10.0.0.7", "https")
    seen.clear()
    middleware({"REMOTE_ADDR": "198.51.100.9", "HTTP_X_FORWARDED_FOR": "203.0.113.5", "HTTP_X_REAL_IP": "1.1.1.1",
                "wsgi.url_scheme": "http"}, None)
    assert seen["REMOTE_ADDR"] == "198.51.100.9" and "HTTP_X_FORWARDED_FOR" not in seen and "HTTP_X_REAL_IP" not in seen


def test_session_creation_is_limited_but_preflights_and_reads_are_not(client):
    preflight = {"Origin": "http://localhost:3000", "Access-Control-Request-Method": "POST"}
    for _ in range(4):
        assert client.options("/chat", headers=preflight).status_code == 200
        assert client.options("/sessions", headers=preflight).status_code == 200
    created = client.post("/sessions", json={}).get_json()
    assert client.post("/chat", json={"question": "What is the Nyquist rate?"}).status_code == 200
    for _ in range(4):
        assert client.get(f"/sessions/{created['id']}").status_code == 200
        assert client.get("/health").status_code == 200
    limited = client.post("/sessions", json={})  # the third write: one budget across /sessions and /chat
    assert limited.status_code == 429 and limited.get_json()["code"] == "RATE_LIMITED"


@pytest.mark.parametrize("raw", ["10.0.0.0/33", "proxy.example", "10.0.0.1, nonsense"])
def test_trusted_proxies_must_be_addresses(monkeypatch, raw):
    monkeypatch.setenv("TRUSTED_PROXIES", raw)
    with pytest.raises(SettingsError, match="TRUSTED_PROXIES must list IP addresses or networks"):
        load_settings(env_file=None)
