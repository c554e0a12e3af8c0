# `sheaf serve` in a real browser: the printed URL opens the vault, a note renders with its image
# and backlinks, search answers as you type, and no hostile note runs anything or loads anything
# from elsewhere (a canary, the console and the resources the page fetched).
import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from conftest import CANARY, screenshot


def wait(driver, seconds=15):
    return WebDriverWait(driver, seconds)


def test_the_printed_url_opens_the_vault_and_drops_the_token(served, browser):
    browser.get(served["url"])
    assert "token=" not in browser.current_url
    assert browser.find_element(By.CSS_SELECTOR, "header .home").text == "samples"
    folders = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "ul.folders a")]
    assert "Recipes/" in folders and "Trips/" in folders
    screenshot(browser, "1-folders")


def test_a_note_shows_its_image_properties_and_backlinks(served, browser):
    browser.get(served["base"] + "/n/Trips/Lisbon/Budget.md")
    image = browser.find_element(By.CSS_SELECTOR, ".body img")
    assert image.get_attribute("src").endswith("/thumb/Trips/Lisbon/images/chart.png")
    assert browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image)
    assert "currency" in [th.text for th in browser.find_elements(By.CSS_SELECTOR, "table.properties th")]
    assert [a.text for a in browser.find_elements(By.CSS_SELECTOR, "p.tags a")][:2] == ["#travel", "#money"]
    screenshot(browser, "2-note")
    browser.get(served["base"] + "/n/Recipes/Baking/Focaccia.md")
    backlinks = browser.find_elements(By.CSS_SELECTOR, ".backlinks .backlink a")
    body_links = browser.find_elements(By.CSS_SELECTOR, ".body a")
    assert body_links or backlinks


def test_search_answers_as_you_type(served, browser):
    browser.get(served["base"] + "/")
    box = browser.find_element(By.ID, "q")
    browser.find_element(By.TAG_NAME, "body").send_keys("/")
    assert browser.switch_to.active_element == box
    box.send_keys("sourdough")
    wait(browser).until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#live ol.hits li")))
    marks = [m.text.lower() for m in browser.find_elements(By.CSS_SELECTOR, "#live mark")]
    assert marks and all("sourdough" in m for m in marks)
    screenshot(browser, "3-search-as-you-type")
    box.send_keys(Keys.ENTER)
    wait(browser).until(EC.url_contains("/search?q=sourdough"))
    assert browser.find_elements(By.CSS_SELECTOR, "#results ol.hits li")


def test_no_hostile_note_runs_script_or_loads_from_elsewhere(served, browser):
    base = served["base"]
    combining = urllib.parse.quote(f'"\u0301 autofocus onfocus={CANARY} x="', safe="")
    pages = ["/f/Hostile", "/tags", "/search?q=PWNED", "/search?q=" + combining] + [
        "/n/Hostile/" + urllib.parse.quote(name, safe="") for name in served["names"]]
    browser.get_log("browser")  # (forget what came before)
    for page in pages:
        browser.get(base + page)
        assert browser.execute_script("return document.readyState") == "complete"
        for element in browser.find_elements(By.CSS_SELECTOR, "div, a, b, img, details, p"):
            try:
                element.location_once_scrolled_into_view
            except Exception:
                pass
        assert browser.title != "PWNED", page
        assert browser.execute_script("return window.__pwned === undefined"), page
        fetched = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        assert all(url.startswith(base + "/") for url in fetched), (page, fetched)
        log = browser.get_log("browser")
        ran = [e["message"] for e in log if "Content Security Policy" in e["message"] or "Uncaught" in e["message"] or "evil.example" in e["message"]]
        assert not ran, (page, ran)
        if page.endswith("handlers.md"):
            screenshot(browser, "4-hostile-note")


def test_a_note_too_costly_to_render_is_shown_as_its_escaped_text(served, browser):
    browser.get(served["base"] + "/n/Hostile/costly.md")
    assert "shown as plain text" in browser.find_element(By.CSS_SELECTOR, ".body p").text
    text = browser.find_element(By.CSS_SELECTOR, ".body pre").text
    assert text.startswith(f"<script>{CANARY}</script> [[Ideas]]") and text.count("![[]()") == 20_000
    assert browser.title != "PWNED" and browser.execute_script("return window.__pwned === undefined")


def test_an_open_note_updates_by_itself_when_its_file_changes(served, browser):
    browser.get(served["base"] + "/n/Inbox/Ideas.md")
    browser.execute_script("window.__samePage = 1")  # gone if the page were loaded again
    note = served["vault"] / "Inbox" / "Ideas.md"
    marker = "A line written on disk while the page was open"
    note.write_text(note.read_text() + "\n" + marker + "\n")
    wait(browser, 30).until(lambda d: marker in d.find_element(By.TAG_NAME, "main").text)
    assert browser.execute_script("return window.__samePage") == 1
    screenshot(browser, "5-live-update")


def test_a_save_while_the_file_changed_on_disk_keeps_both(served, browser):
    browser.get(served["base"] + "/n/Recipes/Shakshuka.md")
    browser.find_element(By.TAG_NAME, "body").send_keys("e")
    text = wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, "form.edit textarea")))
    note = served["vault"] / "Recipes" / "Shakshuka.md"
    note.write_text(note.read_text() + "\nA line saved by an editor meanwhile.\n")
    text.send_keys(Keys.CONTROL, Keys.END)
    text.send_keys("\nA line typed in the browser.\n")
    screenshot(browser, "6-edit")
    browser.find_element(By.CSS_SELECTOR, "form.edit button[type=submit]").click()
    saved = wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, "p.saved")))
    assert "Saved" in saved.text
    on_disk = note.read_text()
    assert "A line saved by an editor meanwhile." in on_disk and "A line typed in the browser." in on_disk
    assert "\r" not in on_disk


def test_g_d_opens_todays_daily_note(served, browser):
    browser.get(served["base"] + "/tags")
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys("g")
    body.send_keys("d")
    wait(browser).until(EC.url_matches(r"/n/\d{4}-\d{2}-\d{2}\.md$"))
    screenshot(browser, "7-daily-note")
