// Site glue for the vendored widget manager (not part of it), loaded before embed-amd.js.
(function () {
  // The modules in embed-amd.js set their webpack public path from their RequireJS module URL:
  // map their names to this folder, where their icon fonts are, or the fonts are fetched
  // relative to each page and fail.
  var here = document.currentScript.src.replace(/\/[^/]*$/, "");
  require.config({ paths: { "@jupyter-widgets": here, "@jupyter-widgets/html-manager/dist": here } });
  // The widget controls typeset their labels with MathJax 2's MathJax.Hub.Queue; the site runs
  // MathJax 3 (loaded with defer, so it is there by DOMContentLoaded, before widgets render).
  document.addEventListener("DOMContentLoaded", function () {
    var mathjax = window.MathJax;
    if (mathjax && !mathjax.Hub && mathjax.typesetPromise) {
      mathjax.Hub = {
        Queue: function (job) {
          return mathjax.typesetPromise([job[2]]);
        },
      };
    }
  });
})();
