// The build failed at finegrain:compile with the DSL's own message, as a failure (not an execution error).
def log = new File(basedir, 'build.log').text
def failed = log.readLines().find { it.startsWith('[ERROR] Failed to execute goal dev.finegrain:finegrain-maven-plugin:') }
assert failed != null : 'finegrain:compile did not fail the build'
// the DSL's one-line message, verbatim: kernel, actor, what is wrong, what to do, the user's call site
assert failed.contains("on project rejects-bad-kernel: kernel 'typo', actor 'cell': field 'scor' is not declared (known: score); "
        + "declare it or fix the name (at BadLibrary.java:21) -> [Help 1]") : "not the DSL's message: $failed"
assert log.contains('MAVEN/MojoFailureException') : 'not reported as a MojoFailureException'
assert !failed.contains('finegrain compiler failed') : "reported as an internal error: $failed"
assert !failed.contains('ServiceConfigurationError') && !failed.contains('ExceptionInInitializerError') : "wrapper not unwrapped: $failed"
assert !new File(basedir, 'target/generated-sources/finegrain').exists() : 'something was generated'
return true
