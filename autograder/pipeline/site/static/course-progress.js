// The learner's "Mark passed" marks: kept in this browser's localStorage, never sent anywhere.
// A chapter page has one checkbox (.course-mark-box); the landing page lists every page
// (.course-progress) with a count and a control that clears the marks.
(function () {
  "use strict";
  var KEY = "autograd-state-marks";

  function read() {
    try {
      var marks = JSON.parse(window.localStorage.getItem(KEY) || "{}");
      return marks && typeof marks === "object" ? marks : {};
    } catch (error) {
      return {};
    }
  }

  function write(marks) {
    try {
      window.localStorage.setItem(KEY, JSON.stringify(marks));
      return true;
    } catch (error) {
      return false;
    }
  }

  function show() {
    var marks = read();
    document.querySelectorAll(".course-mark-box").forEach(function (box) {
      box.checked = Boolean(marks[box.dataset.page]);
    });
    document.querySelectorAll(".course-progress").forEach(function (list) {
      var items = list.querySelectorAll("li[data-page]");
      var passed = [];
      items.forEach(function (item) {
        var marked = Boolean(marks[item.dataset.page]);
        item.classList.toggle("course-progress-passed", marked);
        item.querySelector(".course-progress-state").textContent = marked ? "passed" : "not marked";
        if (marked) passed.push(item.querySelector("a").textContent);
      });
      list.dataset.passed = String(passed.length);
      list.querySelector(".course-progress-summary").textContent = passed.length + " of " + items.length +
        " marked passed" + (passed.length ? ": " + passed.join("; ") + "." : ".");
    });
  }

  function mark(box) {
    var marks = read();
    if (box.checked) marks[box.dataset.page] = new Date().toISOString().slice(0, 10);
    else delete marks[box.dataset.page];
    var status = box.closest(".course-mark").querySelector(".course-mark-status");
    if (!write(marks)) {
      box.checked = !box.checked;
      status.textContent = "This browser keeps no marks (its storage is off).";
      return;
    }
    var count = Object.keys(marks).length;
    status.textContent = (box.checked ? "Marked passed" : "Mark removed") + ", in this browser only: " +
      count + (count === 1 ? " page" : " pages") + " marked passed in all.";
  }

  function clear(button) {
    write({});
    show();
    var summary = button.closest(".course-progress").querySelector(".course-progress-summary");
    summary.textContent = "Your marks are cleared. " + summary.textContent;
  }

  function start() {
    show();
    document.querySelectorAll(".course-mark-box").forEach(function (box) {
      box.addEventListener("change", function () { mark(box); });
    });
    document.querySelectorAll(".course-progress-clear").forEach(function (button) {
      button.addEventListener("click", function () { clear(button); });
    });
    // Another tab of the site marked or cleared.
    window.addEventListener("storage", function (event) { if (event.key === KEY || event.key === null) show(); });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
