"""The account page's new parts in Chromium (issue 40, the account part): change the password,
sign out everywhere, "Forgot your password?" and the page a mailed link opens — in English,
Russian and German, on a laptop and a phone, every word from the catalogue."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ra import words
from ra.web.testing import Server, free_port
from tests.web.test_account_reset import token_in, wait_resets
from tests.web.test_browser import (
    BROWSER_TESTS,
    SHOTS,
    new_page,
    no_js_errors,
    no_sideways_scroll,
    shot,
    wait_js,
)
from tests.web.test_mail import PASSWORD, Inbox, confirm, mailing_server

pytestmark = BROWSER_TESTS
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
NEW = "the-new-one-42"
NEWER = "the-newer-one-43"
OUT = Path("/tmp/shots")


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    """A real SMTP server on loopback (aiosmtpd) that keeps what it is sent."""
    from aiosmtpd.controller import Controller

    port, box = free_port(), Inbox()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    yield box, port
    controller.stop()


def snap(page: Any, name: str) -> None:
    """A full-page screenshot in tests/web/screenshots/, copied to /tmp/shots/ to look at."""
    shot(page, name)
    OUT.mkdir(parents=True, exist_ok=True)
    shutil.copy(SHOTS / f"{name}.png", OUT / f"{name}.png")


def toast_says(page: Any, text: str) -> None:
    wait_js(page, f"[...document.querySelectorAll('.toast')].some((e) => e.textContent === {text!r})", 10_000)


def test_the_account_pages_change_reset_and_sign_out_everywhere(
    browser: Any,
    server_factory: type[Server],
    sqlite_url: str,
    tmp_path: Path,
    inbox: tuple[Inbox, int],
) -> None:
    box, port = inbox
    srv = mailing_server(server_factory, sqlite_url, tmp_path, port)
    base = srv.url
    en = words.words("en")
    page = new_page(browser, LAPTOP)
    page.goto(base + "/account")
    page.fill("#signup input[name=name]", "Ann")
    page.fill("#signup input[name=password]", PASSWORD)
    page.fill("#signup input[name=email]", "ann@test.example")
    page.click("#signup button[type=submit]")
    page.wait_for_selector("#logout")
    assert confirm(base, box, 1).status_code == 200
    page.reload()
    page.wait_for_selector("#password-box")
    assert page.inner_text("#password-box h2") == en("account.passwordTitle")
    snap(page, "account-security-en-laptop")
    # Change the password: a wrong current one is said so; the right one keeps this page signed in.
    page.fill("#password input[name=current]", "not-the-one")
    page.fill("#password input[name=password]", NEW)
    page.click("#password button[type=submit]")
    page.wait_for_selector(f"#password .form-error:has-text({en('err.wrong_password')!r})")
    page.fill("#password input[name=current]", PASSWORD)
    page.click("#password button[type=submit]")
    toast_says(page, en("account.passwordChanged"))
    assert page.input_value("#password input[name=current]") == ""
    page.click("#mail-turns")  # a change after it carries the new session's CSRF token
    wait_js(page, "document.querySelector('#mail-turns').checked === false")
    page.reload()
    page.wait_for_selector("#mail-turns:not(:checked)")
    # Sign out everywhere: the sign-in page, and the session is gone on the server too.
    page.click("#logout-everywhere")
    page.wait_for_selector("#login")
    toast_says(page, en("account.everywhereDone"))
    assert page.request.get(base + "/api/account").status == 401
    # Forgot the password: the name from the sign-in form; the same words for any name.
    page.click("#forgot-box summary")
    wait_js(page, "document.querySelector('#forgot input[name=who]').value === 'Ann'", 5_000)
    page.click("#forgot button[type=submit]")
    page.wait_for_selector(f"#forgot .forgot-state:has-text({en('account.forgotSent')!r})")
    snap(page, "forgot-en-laptop")
    (mail,) = wait_resets(box, 1)
    token = token_in(mail)
    # The link opens the page that asks for the new password, the token gone from the address bar.
    page.goto(f"{base}/account#reset={token}")
    page.wait_for_selector("#reset")
    assert "reset" not in page.url and token not in page.url
    assert page.inner_text("h1") == en("account.resetTitle")
    snap(page, "reset-en-laptop")
    page.fill("#reset input[name=password]", NEWER)
    page.click("#reset button[type=submit]")
    page.wait_for_selector("#logout")
    toast_says(page, en("account.resetDone"))
    assert httpx.post(base + "/api/account/login", json={"name": "Ann", "password": NEWER}).status_code == 200
    # Used once: the same link again says so, and offers a new one.
    page.click("#logout")
    page.wait_for_selector("#login")
    page.goto(f"{base}/account?reset={token}")  # the query form lands the same
    page.wait_for_selector("#reset")
    assert "reset" not in page.url
    page.fill("#reset input[name=password]", "whatever-it-is")
    page.click("#reset button[type=submit]")
    page.wait_for_selector(f"#reset .form-error:has-text({en('err.bad_reset')!r})")
    page.wait_for_selector("#reset-again:not([hidden])")
    snap(page, "reset-used-en-laptop")
    page.click("#reset-again")
    page.wait_for_selector("#forgot-box[open]")
    no_js_errors(page)
    page.context.close()
    # English, Russian and German, laptop and phone: signed in, then signed out with the forgot form,
    # then a stale link's page; nothing scrolls sideways, every word is the language's.
    for lang, locale in (("en", "en-US"), ("ru", "ru-RU"), ("de", "de-DE")):
        w = words.words(lang)
        page = new_page(browser, LAPTOP, locale)
        r = page.request.post(base + "/api/account/login", data={"name": "Ann", "password": NEWER})
        assert r.status == 200
        for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
            page.set_viewport_size(viewport)
            page.goto(base + "/account")
            page.wait_for_selector("#everywhere-box")
            assert page.inner_text("#everywhere-box h2") == w("account.everywhere")
            assert w("account.currentPassword") in page.inner_text("#password-box")
            snap(page, f"account-security-{lang}-{size}")
            if size == "phone":
                no_sideways_scroll(page)
        page.click("#logout")
        page.wait_for_selector("#login")
        page.goto(base + "/account#forgot")  # one ask per language (asks are limited per address)
        page.wait_for_selector("#forgot-box[open]")
        page.fill("#forgot input[name=who]", "nobody@test.example")
        page.click("#forgot button[type=submit]")
        page.wait_for_selector(f"#forgot .forgot-state:has-text({w('account.forgotSent')!r})")
        sizes = (("laptop", LAPTOP), ("phone", PHONE))
        for size, viewport in sizes:
            page.set_viewport_size(viewport)
            snap(page, f"forgot-{lang}-{size}")
        no_sideways_scroll(page)
        page.goto(f"{base}/account#reset={token}")
        page.wait_for_selector("#reset")
        assert page.inner_text("h1") == w("account.resetTitle")
        page.fill("#reset input[name=password]", "whatever-it-is")
        page.click("#reset button[type=submit]")
        page.wait_for_selector(f"#reset .form-error:has-text({w('err.bad_reset')!r})")
        for size, viewport in sizes:
            page.set_viewport_size(viewport)
            snap(page, f"reset-used-{lang}-{size}")
        no_sideways_scroll(page)
        no_js_errors(page)
        page.context.close()


@pytest.mark.parametrize("signed_in", [True, False])
def test_the_new_parts_pass_axe_and_bypass_no_catalogue(
    browser: Any, server: Server, signed_in: bool
) -> None:
    """An axe-core audit of the new parts; and in the pseudo-locale, where every catalogued
    letter is accented, none of their English is on screen (it would have bypassed the catalogue)."""
    from tests.web.test_accessibility import audit

    found: list[str] = []
    base = server.url
    page = new_page(browser, LAPTOP)
    if signed_in:
        r = page.request.post(base + "/api/account/signup", data={"name": "Xa", "password": PASSWORD})
        assert r.status == 200
    page.goto(base + "/account?lang=en-XA")
    page.wait_for_selector("#everywhere-box" if signed_in else "#forgot-box")
    if not signed_in:
        page.click("#forgot-box summary")
    audit(page, "the account page's new parts", found)
    en = words.words("en")
    keys = (
        ["account.passwordTitle", "account.currentPassword", "account.everywhere", "account.everywhereHelp"]
        if signed_in
        else ["account.forgot", "account.forgotHelp", "account.forgotWho", "account.forgotBtn"]
    )
    text = page.inner_text("#account")
    for key in keys:
        assert en(key) not in text and words.pseudo_text(en(key)) in text, key
    page.goto(base + "/account?lang=en-XA#reset=abc")
    page.wait_for_selector("#reset")
    assert en("account.resetHelp") not in page.inner_text("#account")
    assert re.search(r"\[.*\]", page.inner_text("h1"))
    page.fill("#reset input[name=password]", "whatever-it-is")
    page.click("#reset button[type=submit]")
    page.wait_for_selector("#reset-again:not([hidden])")
    audit(page, "a stale password link's page", found)
    assert not found, "\n".join(found)
    no_js_errors(page)
    page.context.close()
