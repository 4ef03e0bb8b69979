"""The Record button of `wayfinder serve`, in a real browser (Chromium through selenium, as
test_serve.py drives it): a session done on the phone (a link, back, a modal, typing into its
fields, a button, dismissing it, a tab) is exported as a spec; `wayfinder test` passes on it, and
fails, naming the titles on the screen, once a link it taps is given another title.
"""

import os
import subprocess
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

import test_serve


class RecordInBrowserTests(unittest.TestCase):
    # The browser, the served app and the page helpers are test_serve's (named through the module,
    # so the loader does not run its tests here again).
    Serve = test_serve.ServeInBrowserTests
    setUpClass = classmethod(Serve.setUpClass.__func__)
    tearDownClass = classmethod(Serve.tearDownClass.__func__)
    setUp = Serve.setUp
    screenshot_on_failure = Serve.screenshot_on_failure
    until = Serve.until
    find = Serve.find
    finds = Serve.finds
    title = Serve.title
    lines = Serve.lines
    click_link = Serve.click_link
    events = Serve.events

    def run_spec(self, path):
        return subprocess.run([test_serve.BINARY, "test", path], capture_output=True, text=True,
                              timeout=test_serve.GUARD * 4)

    def test_a_recorded_session_replays_and_fails_when_a_link_title_changes(self):
        with self.screenshot_on_failure():
            self.find("#record-button").click()
            self.until(lambda d: self.find("body").get_attribute("data-recording") == "on", "recording to start")

            self.click_link("tt://food/porridge")
            self.until(lambda d: self.title() == "Porridge", "the dish")
            self.find("#back-button").click()
            self.until(lambda d: self.title() == "Breakfast", "back to the menu")
            self.click_link("tt://order?waitress=Betty&ref=toolbar")
            self.until(lambda d: self.title() == "Place Your Order", "the order sheet")

            Select(self.find('.top select[data-field="food"]')).select_by_visible_text("Apple Pie")
            self.until(lambda d: len(self.events("fill")) == 1, "the choice to reach the app")
            note = self.find('.top input[data-field="note"]')
            note.send_keys("extra cheese", Keys.TAB)
            self.until(lambda d: len(self.events("fill")) == 2, "the note to reach the app")
            self.find('.top .form-button[data-method="add"]').click()
            self.until(lambda d: "Your order: Apple Pie." in self.lines(), "the dish added by the button")
            self.assertEqual(self.find('.top input[data-field="note"]').get_attribute("value"), "extra cheese")
            self.find("#close-button").click()
            self.until(lambda d: not self.finds(".layer.sheet") and self.title() == "Breakfast", "the sheet to close")
            self.find('.tab[data-tab="2"]').click()
            self.until(lambda d: self.title() == "Lunch", "the second tab")
            # The devtools log each typing and press.
            self.assertIn("Note = extra cheese", self.events("fill")[1].get_attribute("textContent"))
            self.assertEqual(len(self.events("press")), 1)

            self.find("#record-button").click()
            self.until(lambda d: self.find("#recorded-spec").is_displayed(), "the recorded spec")
            spec = self.find("#recorded-spec").get_attribute("value")
            for step in ['app:tap("Porridge")', "app:back()", 'app:tap("Order")', 'app:fill("Food", "Apple Pie")',
                         'app:fill("Note", "extra cheese")', 'app:tap("Add to order")', "app:dismiss()",
                         'app:tap("Lunch")', 'assert.is_true(app:see("Lunch"))']:
                self.assertIn(step, spec)
            self.assertTrue(self.find("#export-spec").get_attribute("href").startswith("blob:"))

            os.makedirs(os.path.join(self.serve.app, "spec"), exist_ok=True)
            path = os.path.join(self.serve.app, "spec", "recorded_spec.lua")
            with open(path, "w", encoding="utf-8") as file:
                file.write(spec)
            passed = self.run_spec(path)
            self.assertEqual(passed.returncode, 0, passed.stdout + passed.stderr)

            menus = self.serve.read("data/menus.lua")
            self.serve.write("data/menus.lua", menus.replace('{ "Porridge", "tt://food/porridge" }', '{ "Oatmeal", "tt://food/porridge" }'))
            failed = self.run_spec(path)
            self.assertNotEqual(failed.returncode, 0, failed.stdout)
            self.assertIn("nothing titled 'Porridge' on the screen", failed.stdout + failed.stderr)
            self.assertIn("'Oatmeal'", failed.stdout + failed.stderr)


if __name__ == "__main__":
    unittest.main()
