"""End-to-end tests of `wayfinder serve` in a real browser: Debian's Chromium, headless, driven
through its WebDriver (chromium-driver) with selenium. Each test serves its own copy of the
restaurant example with its own state file, on a port the system chooses, and uses the page as a
person would: links, back, tabs, a modal and a popover and their dismissal, the URL bar, a link
from outside and an open a guard keeps waiting, live reload (a save, a broken save, a fix) and
time travel.

Every wait is a condition on the page (WebDriverWait); the timeouts are outer guards only. On a
failure the page is saved as a PNG in Tests/Browser/failures/ (ignored by git).

Environment: WAYFINDER (the binary; default .build/debug/wayfinder), CHROMIUM and CHROMEDRIVER
(default /usr/bin/chromium and /usr/bin/chromedriver), WAYFINDER_SERVE_SCREENSHOT (a path: the
devtools test saves the picture of the simulator there, as docs/images/serve.png was made:
WAYFINDER_SERVE_SCREENSHOT=docs/images/serve.png).
"""

import contextlib
import os
import re
import shutil
import subprocess
import tempfile
import threading
import unittest

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("WAYFINDER", os.path.join(ROOT, ".build", "debug", "wayfinder"))
FAILURES = os.path.join(ROOT, "Tests", "Browser", "failures")
GUARD = 30  # seconds: the longest any condition is waited for before the test fails


class ServeProcess:
    """`wayfinder serve` on a copy of the restaurant app, with a state file of its own."""

    def __init__(self):
        self.directory = tempfile.mkdtemp(prefix="wayfinder-browser-")
        self.app = os.path.join(self.directory, "restaurant")
        shutil.copytree(os.path.join(ROOT, "lua", "examples", "restaurant"), self.app)
        self.state = os.path.join(self.directory, "state.json")
        self.process = subprocess.Popen(
            [BINARY, "serve", self.app, "--state", self.state],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.output = []
        found = threading.Event()
        self.url = None

        def read():
            for line in self.process.stdout:
                self.output.append(line)
                match = re.search(r"wayfinder serve: (http://\S+)", line)
                if match and not self.url:
                    self.url = match.group(1)
                    found.set()
            found.set()

        threading.Thread(target=read, daemon=True).start()
        if not found.wait(GUARD) or not self.url:
            self.stop()
            raise AssertionError("wayfinder serve printed no address: " + "".join(self.output))

    def write(self, relative, text):
        with open(os.path.join(self.app, relative), "w", encoding="utf-8") as file:
            file.write(text)

    def read(self, relative):
        with open(os.path.join(self.app, relative), encoding="utf-8") as file:
            return file.read()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(GUARD)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.directory, ignore_errors=True)


class ServeInBrowserTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        options = webdriver.ChromeOptions()
        options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         "--window-size=1280,900", "--force-device-scale-factor=1",
                         # Sheets and popovers appear at once: a click never lands on one still sliding in.
                         "--force-prefers-reduced-motion"]:
            options.add_argument(argument)
        service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
        cls.driver = webdriver.Chrome(service=service, options=options)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def setUp(self):
        self.serve = ServeProcess()
        self.addCleanup(self.serve.stop)
        self.driver.get(self.serve.url)
        self.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-connection") == "open"
                   and self.title() == "Breakfast", "the page to connect and show the first tab")

    # Helpers

    @contextlib.contextmanager
    def screenshot_on_failure(self):
        try:
            yield
        except BaseException:
            os.makedirs(FAILURES, exist_ok=True)
            self.driver.save_screenshot(os.path.join(FAILURES, self.id().split(".")[-1] + ".png"))
            raise

    def until(self, condition, what):
        def safely(driver):
            try:
                return condition(driver)
            except StaleElementReferenceException:
                return False
        return WebDriverWait(self.driver, GUARD).until(safely, "waited for " + what)

    def find(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def finds(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def title(self):
        titles = self.finds(".top .nav-title")
        return titles[0].text if titles else None

    def lines(self):
        return [line.text for line in self.finds(".top .line")]

    def click_link(self, url):
        self.find('.top .link[data-url="%s"]' % url).click()

    def open_from_bar(self, url):
        field = self.find("#url-input")
        field.clear()
        field.send_keys(url, Keys.ENTER)

    def toast(self):
        # What the note at the bottom of the phone last said: its text stays when it hides after a
        # few seconds, so a slow machine cannot miss it.
        return self.find("#toast").get_attribute("textContent")

    def last_event(self):
        rows = self.finds("#event-log .event")
        return rows[-1] if rows else None

    def events(self, kind):
        return self.finds('#event-log .event[data-kind="%s"]' % kind)

    def panel(self, name):
        self.find('.devtools-tabs button[data-panel="%s"]' % name).click()
        self.until(lambda d: self.find("#panel-" + name).is_displayed(), "the %s panel" % name)

    # Tests

    def test_links_back_and_tabs(self):
        with self.screenshot_on_failure():
            self.click_link("tt://food/porridge")
            self.until(lambda d: self.title() == "Porridge", "the dish to open")
            self.assertEqual(self.find("#back-button").text, "Breakfast")
            self.assertEqual(self.find("#url-input").get_attribute("value"), "tt://food/porridge")
            self.click_link("tt://food/porridge/nutrition")
            self.until(lambda d: self.title() == "Nutritional Info", "the nutrition page")
            self.assertEqual(self.find("#back-button").text, "Porridge")

            self.find("#back-button").click()
            self.until(lambda d: self.title() == "Porridge", "back to the dish")
            self.find("#back-button").click()
            self.until(lambda d: self.title() == "Breakfast" and not self.finds("#back-button"), "back to the menu")

            self.find('.tab[data-tab="2"]').click()
            self.until(lambda d: self.title() == "Lunch", "the second tab")
            self.assertIn("selected", self.find('.tab[data-tab="2"]').get_attribute("class"))
            self.assertEqual(self.find('.tab[data-tab="1"]').text, "Breakfast")

            self.until(lambda d: len(self.events("open")) == 2 and len(self.events("back")) == 2
                       and len(self.events("select")) == 1, "the event log to list every step")
            self.events("open")[0].click()
            self.until(lambda d: "tt://food/(initWithFood:)" in self.find("#event-detail").text, "the event's route")
            self.assertIn('"initWithFood":"porridge"', self.find("#event-detail").text)
            # The changes the host reported for it.
            self.assertIn("pushed tt://food/porridge onto tab 1", self.find("#event-detail").text)

    def test_a_modal_and_a_popover_and_their_dismissal(self):
        with self.screenshot_on_failure():
            self.click_link("tt://order?waitress=Betty&ref=toolbar")
            self.until(lambda d: self.finds(".layer.sheet.top") and self.title() == "Place Your Order", "the order sheet")
            self.assertIn("covered", self.find(".layer.root").get_attribute("class"))
            self.find("#close-button").click()
            self.until(lambda d: not self.finds(".layer.sheet") and self.title() == "Breakfast", "the sheet to close")

            self.click_link("tt://order?waitress=Betty&ref=toolbar")
            self.until(lambda d: self.title() == "Place Your Order", "the order sheet again")
            self.click_link("tt://order/confirm")
            self.until(lambda d: self.finds(".popover.top") and self.title() == "Are you sure?", "the popover")
            self.assertTrue(self.find(".layer.sheet").is_displayed())
            self.click_link("tt://dismiss")
            self.until(lambda d: not self.finds(".popover") and self.title() == "Place Your Order", "the popover to close")
            self.click_link("tt://dismiss")
            self.until(lambda d: not self.finds(".layer.sheet") and self.title() == "Breakfast", "Cancel to close the sheet")

            self.panel("tree")
            self.click_link("tt://order?waitress=Betty&ref=toolbar")
            self.until(lambda d: "Modal 1" in self.find("#tree-view").text, "the tree to show the modal")
            self.assertIn("(not made yet)", self.find("#tree-view").text)
            # A tab is named as the tab bar names it, made or not.
            nodes = [node.text for node in self.finds("#tree-view .tree-node")]
            self.assertIn("Tab 1: Breakfast (selected)", nodes)
            self.assertIn("Tab 2: Lunch", nodes)
            self.assertEqual(self.find('.tab[data-tab="2"]').text, "Lunch")

    def rectangle(self, selector):
        return self.driver.execute_script(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
            "return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };", selector)

    def test_the_time_travel_banner_leaves_the_navigation_bar_in_view(self):
        with self.screenshot_on_failure():
            self.click_link("tt://food/porridge")
            self.until(lambda d: self.title() == "Porridge", "the dish")
            self.click_link("tt://food/porridge/nutrition")
            self.until(lambda d: self.title() == "Nutritional Info", "the nutrition page")
            self.until(lambda d: len(self.events("open")) == 2, "both opens in the log")
            self.events("open")[1].click()
            self.until(lambda d: self.find("#time-travel").is_displayed() and self.title() == "Nutritional Info", "the earlier state")
            banner = self.rectangle("#time-travel")
            for part in [".top .nav-title", "#back-button"]:
                self.assertGreaterEqual(self.rectangle(part)["top"], banner["bottom"], part + " is under the banner")
            self.assertTrue(self.find("#back-button").is_displayed())

    def test_a_lost_connection_shows_on_the_phone(self):
        with self.screenshot_on_failure():
            cover = "return getComputedStyle(document.getElementById('phone'), '::after').content"
            self.assertIn(self.driver.execute_script(cover), ("none", "normal", ""))
            self.serve.stop()
            self.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-connection") == "closed",
                       "the page to see the server gone")
            self.assertEqual(self.driver.execute_script(cover), '"Disconnected"')
            self.assertIn("Disconnected from wayfinder serve", self.find("#connection-status").text)
            self.assertEqual(self.driver.execute_script(
                "return getComputedStyle(document.querySelector('.layer.top')).pointerEvents"), "none")

    def test_the_url_bar_opens_any_url_and_outside_urls_are_said_so(self):
        with self.screenshot_on_failure():
            self.open_from_bar("tt://food/pizza")
            self.until(lambda d: self.title() == "Pizza", "the typed URL to open")
            self.assertEqual(self.find(".top .screen-url").text, "tt://food/pizza")
            self.open_from_bar("tel:5555555")
            self.until(lambda d: "Opened outside the app: tel:5555555" in self.toast(), "the note of an outside URL")
            self.until(lambda d: self.events("external"), "the external event")
            self.assertEqual(self.title(), "Pizza")
            self.open_from_bar("tt://food/%zz")
            self.until(lambda d: self.events("open")[-1].get_attribute("data-outcome") == "failed", "the failed open in the log")
            self.assertIn("invalid percent escape", self.toast())
            self.assertEqual(self.title(), "Pizza")

    def send_link(self, url):
        field = self.find("#link-input")
        field.clear()
        field.send_keys(url, Keys.ENTER)

    def test_a_link_from_outside_goes_through_the_door_and_a_waiting_open_shows(self):
        with self.screenshot_on_failure():
            # The order's send route is no external one: refused as a link, though the URL bar opens it.
            self.send_link("tt://order/send")
            self.until(lambda d: self.events("link") and self.events("link")[-1].get_attribute("data-outcome") == "failed",
                       "the refused link in the log")
            self.assertIn("cannot open 'tt://order/send' from outside the app", self.toast())
            self.assertEqual(self.title(), "Breakfast")
            self.send_link("tt://food/pizza")
            self.until(lambda d: self.title() == "Pizza", "the linked dish")
            self.assertEqual(self.events("link")[-1].get_attribute("data-outcome"), "changed")

            # Nobody signed in: the guard opens "Who's ordering?" and keeps the order waiting.
            self.open_from_bar("tt://order/send")
            self.until(lambda d: self.title() == "Who's ordering?" and self.find("#pending").is_displayed(),
                       "the sign-in with the waiting open on the phone")
            self.assertIn("tt://order/send", self.find("#pending").text)
            self.assertEqual(self.events("open")[-1].get_attribute("data-outcome"), "waiting")
            self.panel("tree")
            self.until(lambda d: "Waiting for its guard" in self.find("#tree-view").text, "the waiting open in the tree")
            self.assertEqual(self.find("#tree-view .tree-entry.pending").get_attribute("data-url"), "tt://order/send")

    def test_saving_the_app_reloads_it_and_a_broken_save_shows_its_error(self):
        with self.screenshot_on_failure():
            self.click_link("tt://food/porridge")
            self.until(lambda d: self.title() == "Porridge", "the dish")
            food = self.serve.read("screens/food.lua")
            self.assertIn("is just food, ya know?", food)
            self.serve.write("screens/food.lua", food.replace("is just food, ya know?", "is served hot today."))
            self.until(lambda d: "Porridge is served hot today." in self.lines(), "the saved change on the page")
            self.assertEqual(self.find("#back-button").text, "Breakfast")  # the tree was kept
            self.until(lambda d: self.events("reload"), "the reload in the log")

            self.serve.write("screens/food.lua", food + "\nthis is not Lua\n")
            self.until(lambda d: self.find("#failure").is_displayed(), "the error over the screen")
            self.assertRegex(self.find("#failure-message").text, r"food\.lua:\d+:")
            self.assertEqual(self.title(), "Porridge")  # the app runs on

            self.serve.write("screens/food.lua", food)
            self.until(lambda d: not self.find("#failure").is_displayed()
                       and "Porridge is just food, ya know?" in self.lines(), "a good save to clear the error")

    def test_time_travel_shows_an_earlier_tree_and_restores_it(self):
        with self.screenshot_on_failure():
            self.click_link("tt://food/porridge")
            self.until(lambda d: self.title() == "Porridge", "the dish")
            self.click_link("tt://food/porridge/nutrition")
            self.until(lambda d: self.title() == "Nutritional Info", "the nutrition page")
            self.find('.tab[data-tab="3"]').click()
            self.until(lambda d: self.title() == "Dinner", "the third tab")

            self.until(lambda d: len(self.events("open")) == 2, "both opens in the log")
            self.events("open")[0].click()
            self.until(lambda d: self.find("#time-travel").is_displayed() and self.title() == "Porridge",
                       "the phone as it was after the first open")
            self.assertIn("after event #", self.find("#time-travel-text").text)
            self.assertEqual(self.find(".tab.selected").get_attribute("data-tab"), "1")
            self.panel("tree")
            self.assertIn("after event #", self.find("#tree-caption").text)
            self.assertIn("tt://food/porridge", self.find("#tree-view").text)
            self.assertNotIn("tt://food/porridge/nutrition", self.find("#tree-view").text)
            self.find("#restore-button").click()
            self.until(lambda d: not self.find("#time-travel").is_displayed() and self.title() == "Porridge"
                       and self.events("restore"), "the restored tree")
            self.assertEqual(self.find(".tab.selected").get_attribute("data-tab"), "1")
            self.assertEqual(self.find("#back-button").text, "Breakfast")
            # The restored tree is the app's: it goes on from there.
            self.find("#back-button").click()
            self.until(lambda d: self.title() == "Breakfast", "back from the restored dish")

    def test_devtools_explain_routes_and_draw_the_flow(self):
        with self.screenshot_on_failure():
            self.panel("routes")
            self.until(lambda d: len(self.finds("#route-table tbody tr")) > 10, "the route table")
            field = self.find("#explain-input")
            field.send_keys("tt://food/pizza", Keys.ENTER)
            self.until(lambda d: "tt://food/(initWithFood:)" in self.find("#explain-result").text, "the explanation")
            self.assertIn("won", self.find("#explain-result").text)
            self.assertEqual(self.find("#route-table tr.winner td:nth-child(2)").text, "tt://food/(initWithFood:)")
            # The constructor column says what `wayfinder routes` says: a class's method, "-" for a function.
            self.assertEqual(self.find('#route-table tr[data-pattern="tt://food/(initWithFood:)"] td:nth-child(5)').text, "initWithFood")
            self.assertEqual(self.find('#route-table tr[data-pattern="tt://tabBar"] td:nth-child(5)').text, "-")

            self.find('.tab[data-tab="4"]').click()
            self.until(lambda d: self.title() == "Dessert", "the fourth tab")
            self.find('.tab[data-tab="1"]').click()
            self.until(lambda d: self.title() == "Breakfast", "the first tab again")
            self.click_link("tt://food/porridge")
            self.until(lambda d: self.title() == "Porridge", "the dish")
            self.click_link("tt://food/porridge/nutrition")
            self.until(lambda d: self.title() == "Nutritional Info", "the nutrition page")
            self.find("#back-button").click()
            self.until(lambda d: self.title() == "Porridge", "back to the dish")
            self.click_link("tt://order?waitress=Betty&ref=food#porridge")
            self.until(lambda d: self.title() == "Place Your Order", "the order sheet")
            self.panel("flow")
            self.until(lambda d: self.finds('.flow-node[data-label="tt://food/(initWithFood:)"]')
                       and self.finds(".flow-edge.followed"), "the flow graph with the links followed")
            self.assertTrue(self.finds('.flow-node.current'))
            # Every label whole and apart: inside the drawing, no two overlapping, none over a box.
            boxes = self.driver.execute_script(
                "const svg = document.querySelector('#flow-graph svg').getBoundingClientRect();"
                "const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };"
                "return { svg: box(document.querySelector('#flow-graph svg')),"
                " labels: Array.from(document.querySelectorAll('#flow-graph .flow-label')).map(box),"
                " nodes: Array.from(document.querySelectorAll('#flow-graph .flow-node rect')).map(box) };")
            self.assertTrue(boxes["labels"], "the followed links are labelled")

            def overlap(a, b):
                return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
            for index, label in enumerate(boxes["labels"]):
                svg = boxes["svg"]
                self.assertTrue(svg[0] <= label[0] and label[2] <= svg[2] and svg[1] <= label[1] and label[3] <= svg[3], label)
                for other in boxes["labels"][index + 1:] + boxes["nodes"]:
                    self.assertFalse(overlap(label, other), (label, other))

            self.panel("events")
            self.events("open")[0].click()
            self.until(lambda d: self.find("#time-travel").is_displayed(), "the earlier state")
            self.find("#live-button").click()
            self.until(lambda d: not self.find("#time-travel").is_displayed() and self.title() == "Place Your Order",
                       "back to now")
            picture = os.environ.get("WAYFINDER_SERVE_SCREENSHOT")
            if picture:
                # The phone as it was at the nutrition page (time travel), beside the flow graph.
                self.events("open")[1].click()
                self.until(lambda d: self.find("#time-travel").is_displayed() and self.title() == "Nutritional Info",
                           "the earlier state")
                self.panel("flow")
                self.driver.save_screenshot(picture)


if __name__ == "__main__":
    unittest.main()
