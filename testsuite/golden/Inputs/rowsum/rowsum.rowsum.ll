; ModuleID = 'rowsum.tess'
source_filename = "rowsum.tess"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nounwind
define ptx_kernel void @rowsum_BM16_BN256(ptr addrspace(1) noalias readonly %x, ptr addrspace(1) noalias writeonly captures(none) %s, i32 %M, i32 %N) local_unnamed_addr #0 {
entry:
  %0 = tail call range(i32 0, 128) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %0, 31
  %warp = lshr i32 %0, 5
  %1 = sext i32 %N to i64
  %2 = shl nuw nsw i32 %lane, 2
  %3 = icmp eq i32 %lane, 0
  %4 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %5 = shl i32 %4, 4
  %6 = sext i32 %5 to i64
  %7 = mul nsw i64 %1, %6
  %8 = sub i32 %M, %5
  %9 = add i32 %N, 255
  %10 = sdiv i32 %9, 256
  %11 = icmp sgt i32 %9, 255
  br i1 %11, label %for.body.lr.ph, label %for.exit

for.body.lr.ph:                                   ; preds = %entry
  %12 = shl nuw nsw i64 %1, 2
  %13 = or disjoint i32 %warp, 12
  %14 = or disjoint i32 %2, 131
  %15 = icmp slt i32 %13, %8
  %16 = icmp slt i32 %warp, %8
  %17 = zext nneg i32 %warp to i64
  %18 = mul nuw nsw i64 %1, %17
  %19 = zext nneg i32 %2 to i64
  %invariant.gep = getelementptr float, ptr addrspace(1) %x, i64 %18
  %20 = or disjoint i32 %2, 1
  %21 = or disjoint i32 %2, 2
  %22 = or disjoint i32 %2, 3
  %23 = or disjoint i32 %2, 128
  %24 = zext nneg i32 %23 to i64
  %25 = or disjoint i32 %2, 129
  %26 = or disjoint i32 %2, 130
  %27 = or disjoint i32 %warp, 4
  %28 = zext nneg i32 %27 to i64
  %29 = mul nuw nsw i64 %1, %28
  %invariant.gep10 = getelementptr float, ptr addrspace(1) %x, i64 %29
  %30 = icmp slt i32 %27, %8
  %31 = or disjoint i32 %warp, 8
  %32 = zext nneg i32 %31 to i64
  %33 = mul nuw nsw i64 %1, %32
  %invariant.gep12 = getelementptr float, ptr addrspace(1) %x, i64 %33
  %34 = icmp slt i32 %31, %8
  %35 = zext nneg i32 %13 to i64
  %36 = mul nuw nsw i64 %1, %35
  %invariant.gep14 = getelementptr float, ptr addrspace(1) %x, i64 %36
  br label %for.body

for.body:                                         ; preds = %for.body.lr.ph, %ld.tile.done
  %37 = phi float [ 0.000000e+00, %for.body.lr.ph ], [ %373, %ld.tile.done ]
  %38 = phi float [ 0.000000e+00, %for.body.lr.ph ], [ %372, %ld.tile.done ]
  %39 = phi float [ 0.000000e+00, %for.body.lr.ph ], [ %371, %ld.tile.done ]
  %40 = phi float [ 0.000000e+00, %for.body.lr.ph ], [ %370, %ld.tile.done ]
  %iv6 = phi i32 [ 0, %for.body.lr.ph ], [ %iv.next, %ld.tile.done ]
  %41 = shl i32 %iv6, 8
  %42 = sext i32 %41 to i64
  %43 = add nsw i64 %7, %42
  %44 = sub i32 %N, %41
  %45 = getelementptr float, ptr addrspace(1) %x, i64 %43
  %46 = ptrtoint ptr addrspace(1) %45 to i64
  %47 = or i64 %12, %46
  %48 = and i64 %47, 15
  %49 = icmp eq i64 %48, 0
  %50 = icmp slt i32 %14, %44
  %51 = and i1 %50, %49
  %52 = and i1 %15, %51
  br i1 %52, label %ld.tile, label %ld.edge

for.exit:                                         ; preds = %ld.tile.done, %entry
  %.lcssa5 = phi float [ 0.000000e+00, %entry ], [ %370, %ld.tile.done ]
  %.lcssa4 = phi float [ 0.000000e+00, %entry ], [ %371, %ld.tile.done ]
  %.lcssa3 = phi float [ 0.000000e+00, %entry ], [ %372, %ld.tile.done ]
  %.lcssa = phi float [ 0.000000e+00, %entry ], [ %373, %ld.tile.done ]
  %53 = icmp slt i32 %warp, %8
  %54 = and i1 %3, %53
  br i1 %54, label %st.in, label %st.end

ld.tile:                                          ; preds = %for.body
  %gep17 = getelementptr float, ptr addrspace(1) %invariant.gep, i64 %43
  %55 = getelementptr float, ptr addrspace(1) %gep17, i64 %19
  %56 = load float, ptr addrspace(1) %55, align 16
  %57 = getelementptr inbounds nuw i8, ptr addrspace(1) %55, i64 4
  %58 = load float, ptr addrspace(1) %57, align 4
  %59 = getelementptr inbounds nuw i8, ptr addrspace(1) %55, i64 8
  %60 = load float, ptr addrspace(1) %59, align 8
  %61 = getelementptr inbounds nuw i8, ptr addrspace(1) %55, i64 12
  %62 = load float, ptr addrspace(1) %61, align 4
  %63 = getelementptr float, ptr addrspace(1) %gep17, i64 %24
  %64 = load float, ptr addrspace(1) %63, align 16
  %65 = getelementptr inbounds nuw i8, ptr addrspace(1) %63, i64 4
  %66 = load float, ptr addrspace(1) %65, align 4
  %67 = getelementptr inbounds nuw i8, ptr addrspace(1) %63, i64 8
  %68 = load float, ptr addrspace(1) %67, align 8
  %69 = getelementptr inbounds nuw i8, ptr addrspace(1) %63, i64 12
  %70 = load float, ptr addrspace(1) %69, align 4
  %gep19 = getelementptr float, ptr addrspace(1) %invariant.gep10, i64 %43
  %71 = getelementptr float, ptr addrspace(1) %gep19, i64 %19
  %72 = load float, ptr addrspace(1) %71, align 16
  %73 = getelementptr inbounds nuw i8, ptr addrspace(1) %71, i64 4
  %74 = load float, ptr addrspace(1) %73, align 4
  %75 = getelementptr inbounds nuw i8, ptr addrspace(1) %71, i64 8
  %76 = load float, ptr addrspace(1) %75, align 8
  %77 = getelementptr inbounds nuw i8, ptr addrspace(1) %71, i64 12
  %78 = load float, ptr addrspace(1) %77, align 4
  %79 = getelementptr float, ptr addrspace(1) %gep19, i64 %24
  %80 = load float, ptr addrspace(1) %79, align 16
  %81 = getelementptr inbounds nuw i8, ptr addrspace(1) %79, i64 4
  %82 = load float, ptr addrspace(1) %81, align 4
  %83 = getelementptr inbounds nuw i8, ptr addrspace(1) %79, i64 8
  %84 = load float, ptr addrspace(1) %83, align 8
  %85 = getelementptr inbounds nuw i8, ptr addrspace(1) %79, i64 12
  %86 = load float, ptr addrspace(1) %85, align 4
  %gep21 = getelementptr float, ptr addrspace(1) %invariant.gep12, i64 %43
  %87 = getelementptr float, ptr addrspace(1) %gep21, i64 %19
  %88 = load float, ptr addrspace(1) %87, align 16
  %89 = getelementptr inbounds nuw i8, ptr addrspace(1) %87, i64 4
  %90 = load float, ptr addrspace(1) %89, align 4
  %91 = getelementptr inbounds nuw i8, ptr addrspace(1) %87, i64 8
  %92 = load float, ptr addrspace(1) %91, align 8
  %93 = getelementptr inbounds nuw i8, ptr addrspace(1) %87, i64 12
  %94 = load float, ptr addrspace(1) %93, align 4
  %95 = getelementptr float, ptr addrspace(1) %gep21, i64 %24
  %96 = load float, ptr addrspace(1) %95, align 16
  %97 = getelementptr inbounds nuw i8, ptr addrspace(1) %95, i64 4
  %98 = load float, ptr addrspace(1) %97, align 4
  %99 = getelementptr inbounds nuw i8, ptr addrspace(1) %95, i64 8
  %100 = load float, ptr addrspace(1) %99, align 8
  %101 = getelementptr inbounds nuw i8, ptr addrspace(1) %95, i64 12
  %102 = load float, ptr addrspace(1) %101, align 4
  %gep23 = getelementptr float, ptr addrspace(1) %invariant.gep14, i64 %43
  %103 = getelementptr float, ptr addrspace(1) %gep23, i64 %19
  %104 = load float, ptr addrspace(1) %103, align 16
  %105 = getelementptr inbounds nuw i8, ptr addrspace(1) %103, i64 4
  %106 = load float, ptr addrspace(1) %105, align 4
  %107 = getelementptr inbounds nuw i8, ptr addrspace(1) %103, i64 8
  %108 = load float, ptr addrspace(1) %107, align 8
  %109 = getelementptr inbounds nuw i8, ptr addrspace(1) %103, i64 12
  %110 = load float, ptr addrspace(1) %109, align 4
  %111 = getelementptr float, ptr addrspace(1) %gep23, i64 %24
  %112 = load float, ptr addrspace(1) %111, align 16
  %113 = getelementptr inbounds nuw i8, ptr addrspace(1) %111, i64 4
  %114 = load float, ptr addrspace(1) %113, align 4
  %115 = getelementptr inbounds nuw i8, ptr addrspace(1) %111, i64 8
  %116 = load float, ptr addrspace(1) %115, align 8
  %117 = getelementptr inbounds nuw i8, ptr addrspace(1) %111, i64 12
  %118 = load float, ptr addrspace(1) %117, align 4
  br label %ld.tile.done

ld.edge:                                          ; preds = %for.body
  %119 = icmp slt i32 %2, %44
  %120 = and i1 %16, %119
  %gep = getelementptr float, ptr addrspace(1) %invariant.gep, i64 %43
  %121 = getelementptr float, ptr addrspace(1) %gep, i64 %19
  %122 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %121, i1 %120, i32 0) #3
  %123 = bitcast i32 %122 to float
  %124 = icmp slt i32 %20, %44
  %125 = and i1 %16, %124
  %126 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %121, i1 %125, i32 0) #3
  %127 = bitcast i32 %126 to float
  %128 = icmp slt i32 %21, %44
  %129 = and i1 %16, %128
  %130 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %121, i1 %129, i32 0) #3
  %131 = bitcast i32 %130 to float
  %132 = icmp slt i32 %22, %44
  %133 = and i1 %16, %132
  %134 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %121, i1 %133, i32 0) #3
  %135 = bitcast i32 %134 to float
  %136 = getelementptr float, ptr addrspace(1) %gep, i64 %24
  %137 = icmp slt i32 %23, %44
  %138 = and i1 %16, %137
  %139 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %136, i1 %138, i32 0) #3
  %140 = bitcast i32 %139 to float
  %141 = icmp slt i32 %25, %44
  %142 = and i1 %16, %141
  %143 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %136, i1 %142, i32 0) #3
  %144 = bitcast i32 %143 to float
  %145 = icmp slt i32 %26, %44
  %146 = and i1 %16, %145
  %147 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %136, i1 %146, i32 0) #3
  %148 = bitcast i32 %147 to float
  %149 = and i1 %16, %50
  %150 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %136, i1 %149, i32 0) #3
  %151 = bitcast i32 %150 to float
  %gep11 = getelementptr float, ptr addrspace(1) %invariant.gep10, i64 %43
  %152 = getelementptr float, ptr addrspace(1) %gep11, i64 %19
  %153 = and i1 %30, %119
  %154 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %152, i1 %153, i32 0) #3
  %155 = bitcast i32 %154 to float
  %156 = and i1 %30, %124
  %157 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %152, i1 %156, i32 0) #3
  %158 = bitcast i32 %157 to float
  %159 = and i1 %30, %128
  %160 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %152, i1 %159, i32 0) #3
  %161 = bitcast i32 %160 to float
  %162 = and i1 %30, %132
  %163 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %152, i1 %162, i32 0) #3
  %164 = bitcast i32 %163 to float
  %165 = getelementptr float, ptr addrspace(1) %gep11, i64 %24
  %166 = and i1 %30, %137
  %167 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %165, i1 %166, i32 0) #3
  %168 = bitcast i32 %167 to float
  %169 = and i1 %30, %141
  %170 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %165, i1 %169, i32 0) #3
  %171 = bitcast i32 %170 to float
  %172 = and i1 %30, %145
  %173 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %165, i1 %172, i32 0) #3
  %174 = bitcast i32 %173 to float
  %175 = and i1 %30, %50
  %176 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %165, i1 %175, i32 0) #3
  %177 = bitcast i32 %176 to float
  %gep13 = getelementptr float, ptr addrspace(1) %invariant.gep12, i64 %43
  %178 = getelementptr float, ptr addrspace(1) %gep13, i64 %19
  %179 = and i1 %34, %119
  %180 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %178, i1 %179, i32 0) #3
  %181 = bitcast i32 %180 to float
  %182 = and i1 %34, %124
  %183 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %178, i1 %182, i32 0) #3
  %184 = bitcast i32 %183 to float
  %185 = and i1 %34, %128
  %186 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %178, i1 %185, i32 0) #3
  %187 = bitcast i32 %186 to float
  %188 = and i1 %34, %132
  %189 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %178, i1 %188, i32 0) #3
  %190 = bitcast i32 %189 to float
  %191 = getelementptr float, ptr addrspace(1) %gep13, i64 %24
  %192 = and i1 %34, %137
  %193 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %191, i1 %192, i32 0) #3
  %194 = bitcast i32 %193 to float
  %195 = and i1 %34, %141
  %196 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %191, i1 %195, i32 0) #3
  %197 = bitcast i32 %196 to float
  %198 = and i1 %34, %145
  %199 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %191, i1 %198, i32 0) #3
  %200 = bitcast i32 %199 to float
  %201 = and i1 %34, %50
  %202 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %191, i1 %201, i32 0) #3
  %203 = bitcast i32 %202 to float
  %gep15 = getelementptr float, ptr addrspace(1) %invariant.gep14, i64 %43
  %204 = getelementptr float, ptr addrspace(1) %gep15, i64 %19
  %205 = and i1 %15, %119
  %206 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %204, i1 %205, i32 0) #3
  %207 = bitcast i32 %206 to float
  %208 = and i1 %15, %124
  %209 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %204, i1 %208, i32 0) #3
  %210 = bitcast i32 %209 to float
  %211 = and i1 %15, %128
  %212 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %204, i1 %211, i32 0) #3
  %213 = bitcast i32 %212 to float
  %214 = and i1 %15, %132
  %215 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %204, i1 %214, i32 0) #3
  %216 = bitcast i32 %215 to float
  %217 = getelementptr float, ptr addrspace(1) %gep15, i64 %24
  %218 = and i1 %15, %137
  %219 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %217, i1 %218, i32 0) #3
  %220 = bitcast i32 %219 to float
  %221 = and i1 %15, %141
  %222 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %217, i1 %221, i32 0) #3
  %223 = bitcast i32 %222 to float
  %224 = and i1 %15, %145
  %225 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %217, i1 %224, i32 0) #3
  %226 = bitcast i32 %225 to float
  %227 = and i1 %15, %50
  %228 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %217, i1 %227, i32 0) #3
  %229 = bitcast i32 %228 to float
  br label %ld.tile.done

ld.tile.done:                                     ; preds = %ld.edge, %ld.tile
  %230 = phi float [ %56, %ld.tile ], [ %123, %ld.edge ]
  %231 = phi float [ %58, %ld.tile ], [ %127, %ld.edge ]
  %232 = phi float [ %60, %ld.tile ], [ %131, %ld.edge ]
  %233 = phi float [ %62, %ld.tile ], [ %135, %ld.edge ]
  %234 = phi float [ %64, %ld.tile ], [ %140, %ld.edge ]
  %235 = phi float [ %66, %ld.tile ], [ %144, %ld.edge ]
  %236 = phi float [ %68, %ld.tile ], [ %148, %ld.edge ]
  %237 = phi float [ %70, %ld.tile ], [ %151, %ld.edge ]
  %238 = phi float [ %72, %ld.tile ], [ %155, %ld.edge ]
  %239 = phi float [ %74, %ld.tile ], [ %158, %ld.edge ]
  %240 = phi float [ %76, %ld.tile ], [ %161, %ld.edge ]
  %241 = phi float [ %78, %ld.tile ], [ %164, %ld.edge ]
  %242 = phi float [ %80, %ld.tile ], [ %168, %ld.edge ]
  %243 = phi float [ %82, %ld.tile ], [ %171, %ld.edge ]
  %244 = phi float [ %84, %ld.tile ], [ %174, %ld.edge ]
  %245 = phi float [ %86, %ld.tile ], [ %177, %ld.edge ]
  %246 = phi float [ %88, %ld.tile ], [ %181, %ld.edge ]
  %247 = phi float [ %90, %ld.tile ], [ %184, %ld.edge ]
  %248 = phi float [ %92, %ld.tile ], [ %187, %ld.edge ]
  %249 = phi float [ %94, %ld.tile ], [ %190, %ld.edge ]
  %250 = phi float [ %96, %ld.tile ], [ %194, %ld.edge ]
  %251 = phi float [ %98, %ld.tile ], [ %197, %ld.edge ]
  %252 = phi float [ %100, %ld.tile ], [ %200, %ld.edge ]
  %253 = phi float [ %102, %ld.tile ], [ %203, %ld.edge ]
  %254 = phi float [ %104, %ld.tile ], [ %207, %ld.edge ]
  %255 = phi float [ %106, %ld.tile ], [ %210, %ld.edge ]
  %256 = phi float [ %108, %ld.tile ], [ %213, %ld.edge ]
  %257 = phi float [ %110, %ld.tile ], [ %216, %ld.edge ]
  %258 = phi float [ %112, %ld.tile ], [ %220, %ld.edge ]
  %259 = phi float [ %114, %ld.tile ], [ %223, %ld.edge ]
  %260 = phi float [ %116, %ld.tile ], [ %226, %ld.edge ]
  %261 = phi float [ %118, %ld.tile ], [ %229, %ld.edge ]
  %262 = fadd contract float %230, %231
  %263 = fadd contract float %262, %232
  %264 = fadd contract float %263, %233
  %265 = fadd contract float %264, %234
  %266 = fadd contract float %265, %235
  %267 = fadd contract float %266, %236
  %268 = fadd contract float %267, %237
  %269 = fadd contract float %238, %239
  %270 = fadd contract float %269, %240
  %271 = fadd contract float %270, %241
  %272 = fadd contract float %271, %242
  %273 = fadd contract float %272, %243
  %274 = fadd contract float %273, %244
  %275 = fadd contract float %274, %245
  %276 = fadd contract float %246, %247
  %277 = fadd contract float %276, %248
  %278 = fadd contract float %277, %249
  %279 = fadd contract float %278, %250
  %280 = fadd contract float %279, %251
  %281 = fadd contract float %280, %252
  %282 = fadd contract float %281, %253
  %283 = fadd contract float %254, %255
  %284 = fadd contract float %283, %256
  %285 = fadd contract float %284, %257
  %286 = fadd contract float %285, %258
  %287 = fadd contract float %286, %259
  %288 = fadd contract float %287, %260
  %289 = fadd contract float %288, %261
  %290 = bitcast float %268 to i32
  %291 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %290, i32 1, i32 31)
  %292 = bitcast i32 %291 to float
  %293 = fadd contract float %268, %292
  %294 = bitcast float %275 to i32
  %295 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %294, i32 1, i32 31)
  %296 = bitcast i32 %295 to float
  %297 = fadd contract float %275, %296
  %298 = bitcast float %282 to i32
  %299 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %298, i32 1, i32 31)
  %300 = bitcast i32 %299 to float
  %301 = fadd contract float %282, %300
  %302 = bitcast float %289 to i32
  %303 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %302, i32 1, i32 31)
  %304 = bitcast i32 %303 to float
  %305 = fadd contract float %289, %304
  %306 = bitcast float %293 to i32
  %307 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %306, i32 2, i32 31)
  %308 = bitcast i32 %307 to float
  %309 = fadd contract float %293, %308
  %310 = bitcast float %297 to i32
  %311 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %310, i32 2, i32 31)
  %312 = bitcast i32 %311 to float
  %313 = fadd contract float %297, %312
  %314 = bitcast float %301 to i32
  %315 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %314, i32 2, i32 31)
  %316 = bitcast i32 %315 to float
  %317 = fadd contract float %301, %316
  %318 = bitcast float %305 to i32
  %319 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %318, i32 2, i32 31)
  %320 = bitcast i32 %319 to float
  %321 = fadd contract float %305, %320
  %322 = bitcast float %309 to i32
  %323 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %322, i32 4, i32 31)
  %324 = bitcast i32 %323 to float
  %325 = fadd contract float %309, %324
  %326 = bitcast float %313 to i32
  %327 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %326, i32 4, i32 31)
  %328 = bitcast i32 %327 to float
  %329 = fadd contract float %313, %328
  %330 = bitcast float %317 to i32
  %331 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %330, i32 4, i32 31)
  %332 = bitcast i32 %331 to float
  %333 = fadd contract float %317, %332
  %334 = bitcast float %321 to i32
  %335 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %334, i32 4, i32 31)
  %336 = bitcast i32 %335 to float
  %337 = fadd contract float %321, %336
  %338 = bitcast float %325 to i32
  %339 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %338, i32 8, i32 31)
  %340 = bitcast i32 %339 to float
  %341 = fadd contract float %325, %340
  %342 = bitcast float %329 to i32
  %343 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %342, i32 8, i32 31)
  %344 = bitcast i32 %343 to float
  %345 = fadd contract float %329, %344
  %346 = bitcast float %333 to i32
  %347 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %346, i32 8, i32 31)
  %348 = bitcast i32 %347 to float
  %349 = fadd contract float %333, %348
  %350 = bitcast float %337 to i32
  %351 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %350, i32 8, i32 31)
  %352 = bitcast i32 %351 to float
  %353 = fadd contract float %337, %352
  %354 = bitcast float %341 to i32
  %355 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %354, i32 16, i32 31)
  %356 = bitcast i32 %355 to float
  %357 = fadd contract float %341, %356
  %358 = bitcast float %345 to i32
  %359 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %358, i32 16, i32 31)
  %360 = bitcast i32 %359 to float
  %361 = fadd contract float %345, %360
  %362 = bitcast float %349 to i32
  %363 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %362, i32 16, i32 31)
  %364 = bitcast i32 %363 to float
  %365 = fadd contract float %349, %364
  %366 = bitcast float %353 to i32
  %367 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %366, i32 16, i32 31)
  %368 = bitcast i32 %367 to float
  %369 = fadd contract float %353, %368
  %370 = fadd contract float %40, %357
  %371 = fadd contract float %39, %361
  %372 = fadd contract float %38, %365
  %373 = fadd contract float %37, %369
  %iv.next = add nuw nsw i32 %iv6, 1
  %exitcond.not = icmp eq i32 %iv.next, %10
  br i1 %exitcond.not, label %for.exit, label %for.body

st.in:                                            ; preds = %for.exit
  %374 = getelementptr float, ptr addrspace(1) %s, i64 %6
  %375 = zext nneg i32 %warp to i64
  %376 = getelementptr float, ptr addrspace(1) %374, i64 %375
  store float %.lcssa5, ptr addrspace(1) %376, align 4
  br label %st.end

st.end:                                           ; preds = %st.in, %for.exit
  %377 = or disjoint i32 %warp, 4
  %378 = icmp slt i32 %377, %8
  %379 = and i1 %3, %378
  br i1 %379, label %st.in1, label %st.end2

st.in1:                                           ; preds = %st.end
  %380 = getelementptr float, ptr addrspace(1) %s, i64 %6
  %381 = zext nneg i32 %377 to i64
  %382 = getelementptr float, ptr addrspace(1) %380, i64 %381
  store float %.lcssa4, ptr addrspace(1) %382, align 4
  br label %st.end2

st.end2:                                          ; preds = %st.in1, %st.end
  %383 = or disjoint i32 %warp, 8
  %384 = icmp slt i32 %383, %8
  %385 = and i1 %3, %384
  br i1 %385, label %st.in3, label %st.end4

st.in3:                                           ; preds = %st.end2
  %386 = getelementptr float, ptr addrspace(1) %s, i64 %6
  %387 = zext nneg i32 %383 to i64
  %388 = getelementptr float, ptr addrspace(1) %386, i64 %387
  store float %.lcssa3, ptr addrspace(1) %388, align 4
  br label %st.end4

st.end4:                                          ; preds = %st.in3, %st.end2
  %389 = or disjoint i32 %warp, 12
  %390 = icmp slt i32 %389, %8
  %391 = and i1 %3, %390
  br i1 %391, label %st.in5, label %st.end6

st.in5:                                           ; preds = %st.end4
  %392 = getelementptr float, ptr addrspace(1) %s, i64 %6
  %393 = zext nneg i32 %389 to i64
  %394 = getelementptr float, ptr addrspace(1) %392, i64 %393
  store float %.lcssa, ptr addrspace(1) %394, align 4
  br label %st.end6

st.end6:                                          ; preds = %st.in5, %st.end4
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32) #2

attributes #0 = { nounwind "nvvm.maxntid"="128,1,1" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }
attributes #3 = { nounwind }
