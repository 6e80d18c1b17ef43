/**
 * The Finegrain Maven plugin, goal {@code finegrain:compile} ({@link dev.finegrain.maven.CompileMojo}): compiles a
 * project's kernels, found as {@code dev.finegrain.dsl.KernelLibrary} services, ahead of time into .class files
 * and readable Java sources.
 *
 * <pre>{@code
 * <plugin>
 *   <groupId>dev.finegrain</groupId>
 *   <artifactId>finegrain-maven-plugin</artifactId>
 *   <version>...</version>
 *   <executions>
 *     <execution>
 *       <goals><goal>compile</goal></goals>
 *       <configuration>
 *         <kernels>needleman-wunsch</kernels>
 *         <packageName>com.example.kernels.aot</packageName>
 *       </configuration>
 *     </execution>
 *   </executions>
 * </plugin>
 * }</pre>
 *
 * This module is compiled for Java 17 because the Mojo runs in Maven's JVM; the compilation itself runs in a
 * forked JDK 25 ({@link dev.finegrain.maven.CompileWorker}).
 */
package dev.finegrain.maven;
