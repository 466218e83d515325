"""The web station in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``) driven through Selenium, at a phone's screen size, against pages
served by uvicorn on loopback. `.ci/run` installs Chromium; where it is not installed
these tests skip and say so.

Set KANGLE_SCREENSHOTS=FOLDER to keep a picture of each phone page (the README's).
"""

import os
import socket
import threading
from pathlib import Path

import pytest

from rules.events.competition import Competition
from tests.event_kit import rummikub_day
from web.links import spoken, table_code

CHROMIUM, DRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM.exists() and DRIVER.exists()),
    reason="Debian's chromium and chromium-driver are not installed (.ci/run installs them)")

PASSWORD = "tea-at-the-top-table"
PLAYERS = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
WAIT = 10.0  # seconds a page may take to show what it should (the standings poll is 2 s)


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=390,844"):
        options.add_argument(flag)  # a phone's screen; no network beyond loopback
    driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    yield driver
    driver.quit()


def served(where: str):
    """The event at ``where`` served on a free loopback port while the generator is
    suspended: yields (event path, base URL). The socket listens before the server
    starts, so the browser's first request waits in its queue rather than being refused."""
    import uvicorn

    from web.app import create_app

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    server = uvicorn.Server(uvicorn.Config(create_app(where, PASSWORD), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    yield where, f"http://127.0.0.1:{sock.getsockname()[1]}"
    server.should_exit = True
    thread.join()
    sock.close()


@pytest.fixture
def station(tmp_path):
    """A Rummikub day, served: (event path, base URL)."""
    yield from served(rummikub_day(tmp_path, PLAYERS))


@pytest.fixture
def cup(tmp_path):
    """A 三国杀 cup of 16 teams, its groups drawn, served: (event path, base URL)."""
    where = str(tmp_path / "sgs.db")
    comp = Competition.create(where, "sanguosha", None, {},
                              [{"name": f"Team {i:02d}"} for i in range(1, 17)], "t")
    comp.draw(None)
    comp.close()
    yield from served(where)


def shows(driver, text: str, where: str = "body") -> None:
    """Wait until the page shows ``text`` (in the element ``where``, a CSS selector)."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    # read in one script call: the standings are replaced every poll and a submitted form
    # loads a new page, so an element found in one call may be gone by the next (Chrome
    # then says "stale element" or "node does not belong to the document"); a read that
    # falls between two pages is simply tried again until WAIT runs out (a table's cells
    # are read tab-separated: spaced as WebDriver's .text spaces them)
    WebDriverWait(driver, WAIT, ignored_exceptions=(WebDriverException,)).until(
        lambda d: text in (d.execute_script(
            "const e = document.querySelector(arguments[0]);"
            "return e ? e.innerText.replace(/[ \\t]+/g, ' ') : '';",
            where) or ""),
        f"the page never showed {text!r}")


def picture(driver, name: str) -> None:
    folder = os.environ.get("KANGLE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(folder) / f"{name}.png"))


def first_table(where: str) -> tuple[str, list[str]]:
    comp = Competition.open(where)
    round_no, number, seats = comp.open_tables()[0]
    code = table_code(comp.store.secret(comp.event), round_no, number)
    comp.close()
    return code, seats


def test_a_phone_types_its_sheets_code_and_enters_the_tables_result(browser, station):
    from selenium.webdriver.common.by import By

    where, base = station
    code, seats = first_table(where)
    browser.get(f"{base}/enter")
    browser.find_element(By.NAME, "code").send_keys(spoken(code).upper())  # as typed
    browser.find_element(By.TAG_NAME, "button").click()
    shows(browser, "Round 1 — table 1")
    for i, score in enumerate(("30", "-10", "-10", "-5")):  # a slip: they sum to 5
        browser.find_element(By.NAME, f"score-{i}").send_keys(score)
    picture(browser, "phone-table-form")
    browser.find_element(By.XPATH, "//button[text()='record the result']").click()
    shows(browser, "sum to", "[role=alert]")  # said beside the form; the scores kept
    assert browser.find_element(By.NAME, "score-0").get_attribute("value") == "30"
    field = browser.find_element(By.NAME, "score-3")
    field.clear()
    field.send_keys("-10")
    browser.find_element(By.XPATH, "//button[text()='record the result']").click()
    shows(browser, "the result is recorded")
    browser.find_element(By.LINK_TEXT, "back to the standings").click()
    shows(browser, f"1 {seats[0]} 1 1", "#standings")  # first, won 1 of 1 played


def test_open_standings_follow_a_result_entered_elsewhere_without_reloading(browser, station):

    where, base = station
    _, seats = first_table(where)
    browser.get(base + "/")
    now = browser.execute_script("return document.getElementById('standings').innerText")
    assert f"{seats[1]} 1 1" not in now
    comp = Competition.open(where)  # another station, or the command line
    comp.record_table(1, 1, {seats[0]: -30, seats[1]: 50, seats[2]: -10, seats[3]: -10}, "t")
    comp.close()
    shows(browser, f"1 {seats[1]} 1 1", "#standings")  # first, won 1 of 1 played
    picture(browser, "phone-standings")


def sign_in(browser, base: str) -> None:
    """Open the organiser's desk, signing in on the way."""
    from selenium.webdriver.common.by import By

    browser.get(f"{base}/o")
    shows(browser, "password")  # sent to sign in first
    browser.find_element(By.NAME, "password").send_keys(PASSWORD)
    browser.find_element(By.XPATH, "//button[text()='sign in']").click()
    shows(browser, "Organiser's desk")


def test_the_organiser_withdraws_a_player_through_the_desks_form(browser, station):
    from selenium.webdriver.common.by import By

    where, base = station
    sign_in(browser, base)
    form = browser.find_element(By.XPATH, "//details[summary[text()='withdraw']]")
    form.find_element(By.TAG_NAME, "summary").click()
    form.find_element(By.NAME, "f-name").send_keys(PLAYERS[1])
    form.find_element(By.NAME, "f-from_round").send_keys("2")
    form.find_element(By.XPATH, ".//button[text()='check and record']").click()
    shows(browser, "Recorded entry", "[role=status]")
    comp = Competition.open(where)
    assert comp.entries()[-1].data == {"name": PLAYERS[1], "from_round": 2}
    comp.close()


def test_the_organiser_signs_in_and_voids_an_entry_at_the_desk(browser, station):
    from selenium.webdriver.common.by import By

    where, base = station
    _, seats = first_table(where)
    comp = Competition.open(where)
    entered = comp.record_table(1, 1, dict(zip(seats, (30, -10, -10, -10), strict=True)),
                                "web: table 1")[0]
    comp.close()
    sign_in(browser, base)
    row = browser.find_element(By.XPATH, f"//tr[td[text()='#{entered.seq}']]")
    row.find_element(By.TAG_NAME, "summary").click()
    row.find_element(By.NAME, "reason").send_keys("wrong table")
    row.find_element(By.XPATH, f".//button[text()='void #{entered.seq}']").click()
    shows(browser, f"replacing entry #{entered.seq}", "[role=status]")
    picture(browser, "desk")
    comp = Competition.open(where)
    assert not [e for e in comp.entries() if e.kind == "result"]
    assert [e.by for e in comp.store.entries(comp.event)][-1] == "web: organiser"
    comp.close()
    browser.find_element(By.XPATH, "//button[text()='sign out']").click()
    shows(browser, "Follows new results")  # signed out, sent to the standings
    browser.get(f"{base}/o")
    shows(browser, "password")  # the desk is shut again


def test_the_organiser_types_a_sanguosha_match_one_line_per_camp(browser, cup):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    where, base = cup
    comp = Competition.open(where)
    a, b = comp.entries()[-1].data["groups"]["A"][:2]
    comp.close()
    sign_in(browser, base)
    form = browser.find_element(By.XPATH, "//details[summary[text()='match']]")
    form.find_element(By.TAG_NAME, "summary").click()
    Select(form.find_element(By.NAME, "f-stage")).select_by_visible_text("group")
    form.find_element(By.NAME, "f-group").send_keys("A")
    form.find_element(By.NAME, "f-teams").send_keys(f"{a}\n{b}")
    Select(form.find_element(By.NAME, "f-result.ended_by")).select_by_visible_text(
        "commander_killed")
    form.find_element(By.NAME, "f-result.camps").send_keys(
        f"{a}: Cao Cao commander 2/5, Zhang Liao vanguard 0/4, Xu Chu vanguard 3/4\n"
        f"{b}: Liu Bei commander 0/5, Guan Yu vanguard 1/4, Zhang Fei vanguard 0/4; "
        "penalties 1")
    picture(browser, "desk-match")
    form.find_element(By.XPATH, ".//button[text()='check and record']").click()
    shows(browser, "Recorded entry", "[role=status]")
    comp = Competition.open(where)
    result = comp.entries()[-1].data["result"]
    group_a = comp.standings().sections[0]
    comp.close()
    assert result["ended_by"] == "commander_killed"
    assert [(c["name"], c.get("penalties")) for c in result["camps"]] == [(a, None), (b, 1)]
    assert [g["name"] for g in result["camps"][1]["generals"]] == [
        "Liu Bei", "Guan Yu", "Zhang Fei"]
    assert {r.name: r.values["W"] for r in group_a.rows}[a] == 1  # b's commander fell
